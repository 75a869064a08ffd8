import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** POST /rides/{ride_id}/rating (CONTRACT §11). */
export class RateRideDto {
  @ApiProperty({ type: 'integer', example: 5, minimum: 1, maximum: 5, description: 'Whole stars, 1 to 5' })
  @IsInt()
  @Min(1)
  @Max(5)
  stars!: number;

  @ApiPropertyOptional({
    type: String,
    example: 'Smooth ride, friendly driver',
    maxLength: 500,
    nullable: true,
    description: 'Stored trimmed; blank counts as none',
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  comment?: string | null;
}
