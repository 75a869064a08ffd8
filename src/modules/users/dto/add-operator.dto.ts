import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { OPERATOR_ROLES, type OperatorRole } from '../../../common/auth/operator-permissions';
import { ReasonDto } from '../../../common/http/reason.dto';
import { EMAIL_MAX_LENGTH } from '../contact';

export class AddOperatorDto extends ReasonDto {
  /** Its shape is judged by normalizeEmail, as everywhere else. */
  @ApiProperty({ example: 'ops@example.com', description: 'The operator signs in with a code sent here (stored trimmed, lower-case)' })
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  email!: string;

  @ApiProperty({ enum: OPERATOR_ROLES, example: 'support' })
  @IsIn(OPERATOR_ROLES)
  operator_role!: OperatorRole;
}
