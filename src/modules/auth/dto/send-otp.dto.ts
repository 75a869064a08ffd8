import { EMAIL_MAX_LENGTH } from '../../users/contact';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** At least one of phone and email (checked by the service, with the spec's message). */
export class SendOtpDto {
  @ApiPropertyOptional({ example: '+15551234567', description: 'Any format; normalised to + and digits' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  phone?: string;

  @ApiPropertyOptional({ example: 'ada@example.com', description: 'Trimmed and lower-cased' })
  @IsOptional()
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  email?: string;
}
