import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsLatitude, IsLongitude, IsNumber, IsOptional, Max, Min } from 'class-validator';

/** Nearby's search radius: the default and the largest a driver may ask for, in km. */
export const NEARBY_DEFAULT_RADIUS_KM = 5;
export const NEARBY_MAX_RADIUS_KM = 50;

export class NearbyRidesQueryDto {
  @ApiPropertyOptional({ example: 52.52, description: "Defaults to the driver's last location (send with longitude)" })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsLatitude()
  latitude?: number;

  @ApiPropertyOptional({ example: 13.405, description: "Defaults to the driver's last location (send with latitude)" })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsLongitude()
  longitude?: number;

  @ApiPropertyOptional({ example: NEARBY_DEFAULT_RADIUS_KM, default: NEARBY_DEFAULT_RADIUS_KM, maximum: NEARBY_MAX_RADIUS_KM })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.1)
  @Max(NEARBY_MAX_RADIUS_KM)
  radius_km?: number;
}
