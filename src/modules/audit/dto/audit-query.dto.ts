import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { PageQueryDto } from '../../../common/http/page-query.dto';

export class AuditQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: '42', description: 'Entries about this target (a user id, a ride id, a promo code)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  target_id?: string;

  @ApiPropertyOptional({ example: 7, description: 'Entries written by this operator' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  actor_id?: number;
}
