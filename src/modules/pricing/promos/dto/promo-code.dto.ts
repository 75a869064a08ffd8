import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsISO8601, IsNumber, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { IsReason, ReasonDto } from '../../../../common/http/reason.dto';

export const DISCOUNT_TYPES = ['percentage', 'fixed'] as const;
/** The largest fixed discount or cap an operator may name, in major units. */
const MAX_AMOUNT = 100000;
const MAX_USES = 2_000_000_000;
const ISO = { strict: true } as const;

/** POST /admin/promo-codes: the CLI's `promo:create` fields (CONTRACT §13). */
export class CreatePromoCodeDto {
  @ApiProperty({ example: 'SUMMER10', description: '3 to 40 letters, digits, - or _; stored upper-case' })
  @IsString()
  @MaxLength(40)
  code!: string;

  @ApiProperty({ enum: DISCOUNT_TYPES, example: 'percentage' })
  @IsIn(DISCOUNT_TYPES, { message: `discount_type must be one of ${DISCOUNT_TYPES.join(', ')}` })
  discount_type!: (typeof DISCOUNT_TYPES)[number];

  @ApiProperty({ example: 10, description: 'percentage: a whole percent from 1 to 100; fixed: an amount off (major units, 2 decimals)' })
  @IsNumber()
  @Max(MAX_AMOUNT)
  discount_value!: number;

  @ApiPropertyOptional({
    type: 'number',
    nullable: true,
    example: 5,
    description: 'The most a percentage takes off (major units); none: no cap',
  })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsNumber()
  @Max(MAX_AMOUNT)
  max_discount?: number | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    example: '2026-06-01T00:00:00Z',
    description: 'Valid from (ISO 8601); none: at once',
  })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsISO8601(ISO)
  valid_from?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    example: '2030-09-01T00:00:00Z',
    description: 'Valid until (ISO 8601); none: no end',
  })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsISO8601(ISO)
  valid_until?: string | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, example: 100, description: 'How many bookings may use it; none: unlimited' })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsInt()
  @Min(0)
  @Max(MAX_USES)
  max_uses?: number | null;

  @ApiPropertyOptional({ example: 'Ten percent off all summer', maxLength: 300 })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  description?: string;

  @ApiProperty({
    example: 'Summer campaign agreed with marketing',
    minLength: 3,
    maxLength: 500,
    description: 'Why: recorded in the audit trail',
  })
  @IsReason()
  reason!: string;
}

/** PATCH /admin/promo-codes/{code}: at least one of the changes, and why. */
export class UpdatePromoCodeDto extends ReasonDto {
  @ApiPropertyOptional({ example: false, description: 'false: the code stops discounting estimates and bookings at once' })
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ type: 'integer', nullable: true, example: 500, description: 'null: unlimited' })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsInt()
  @Min(0)
  @Max(MAX_USES)
  max_uses?: number | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, example: '2030-12-31T23:59:59Z', description: 'null: no end' })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsISO8601(ISO)
  valid_until?: string | null;
}

export class PromoCodeResponseDto {
  @ApiProperty({ example: 3 }) id!: number;
  @ApiProperty({ example: 'SUMMER10' }) code!: string;
  @ApiProperty({ example: 'Ten percent off all summer' }) description!: string;
  @ApiProperty({ enum: DISCOUNT_TYPES, example: 'percentage' }) discount_type!: (typeof DISCOUNT_TYPES)[number];
  @ApiProperty({ example: 10, description: 'percentage: the percent; fixed: the amount off (major units)' }) discount_value!: number;
  @ApiProperty({ type: 'number', nullable: true, example: 5 }) max_discount!: number | null;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ type: 'string', nullable: true, example: '2026-06-01T00:00:00.000Z' }) valid_from!: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: '2030-09-01T00:00:00.000Z' }) valid_until!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 100, description: 'null: unlimited' }) max_uses!: number | null;
  @ApiProperty({ example: 12 }) used_count!: number;
  @ApiProperty({ example: true }) active!: boolean;
  @ApiProperty({ example: '2026-05-20T09:30:00.000Z' }) created_at!: string;
}

export class PromoCodePageResponseDto {
  @ApiProperty({ type: [PromoCodeResponseDto] }) items!: PromoCodeResponseDto[];
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 20 }) limit!: number;
  @ApiProperty({ example: 3 }) total!: number;
}
