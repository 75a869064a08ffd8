import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsLatitude, IsLongitude, IsNumber, IsOptional, Max, Min } from 'class-validator';

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

  @ApiPropertyOptional({ example: 5, default: 5, maximum: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.1)
  @Max(50)
  radius_km?: number;
}
