import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsLatitude, IsLongitude, IsNumber, isNumber, IsOptional, Max, max, Min, min } from 'class-validator';
import { isLatitudeNumber, isLongitudeNumber, registerFastValidation } from '../../../common/http/fast-validation';

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

const inRange = (low: number, high: number) => (v: unknown) => isNumber(v, FINITE) && min(v, low) && max(v, high);

// The heartbeat's hot path: the same rules as the decorators above (see registerFastValidation).
registerFastValidation(UpdateLocationDto, {
  latitude: { test: (v) => isNumber(v, FINITE) && isLatitudeNumber(v) },
  longitude: { test: (v) => isNumber(v, FINITE) && isLongitudeNumber(v) },
  heading: { optional: true, test: inRange(0, 360) },
  speed: { optional: true, test: inRange(0, 150) },
  accuracy: { optional: true, test: inRange(0, 100000) },
});
