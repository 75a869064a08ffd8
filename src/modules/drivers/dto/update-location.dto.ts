import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsLatitude, IsLongitude, IsNumber, IsOptional, Max, Min } from 'class-validator';

const FINITE = { allowNaN: false, allowInfinity: false };

export class UpdateLocationDto {
  @ApiProperty({ example: 52.5219 })
  @IsNumber(FINITE)
  @IsLatitude()
  latitude!: number;

  @ApiProperty({ example: 13.4132 })
  @IsNumber(FINITE)
  @IsLongitude()
  longitude!: number;

  @ApiPropertyOptional({ example: 90, description: 'Degrees clockwise from north, 0 to 360' })
  @IsOptional()
  @IsNumber(FINITE)
  @Min(0)
  @Max(360)
  heading?: number;

  @ApiPropertyOptional({ example: 8.5, description: 'Metres per second' })
  @IsOptional()
  @IsNumber(FINITE)
  @Min(0)
  @Max(150)
  speed?: number;

  @ApiPropertyOptional({ example: 5, description: 'Horizontal accuracy in metres' })
  @IsOptional()
  @IsNumber(FINITE)
  @Min(0)
  @Max(100000)
  accuracy?: number;
}
