import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';

/** Partial update: only the fields sent change. vehicle_category_id null means "serves every category". */
export class UpdateDriverProfileDto {
  @ApiPropertyOptional({ example: 1, nullable: true, type: Number })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(1)
  vehicle_category_id?: number | null;

  @ApiPropertyOptional({ example: 'Toyota' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  vehicle_make?: string;

  @ApiPropertyOptional({ example: 'Corolla' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  vehicle_model?: string;

  @ApiPropertyOptional({ example: 'B-RH 1234' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(20)
  vehicle_plate?: string;

  @ApiPropertyOptional({ example: 'White' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(30)
  vehicle_color?: string;

  @ApiPropertyOptional({ example: 2021 })
  @IsOptional()
  @IsInt()
  @Min(1950)
  @Max(2100)
  vehicle_year?: number;

  @ApiPropertyOptional({ example: 'DL-12345678' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(40)
  license_number?: string;
}
