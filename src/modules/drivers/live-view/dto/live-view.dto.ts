import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsNumber, IsOptional, Max, Min } from 'class-validator';

export const LIVE_DRIVER_STATUSES = ['available', 'on_ride', 'offline'] as const;
export type LiveDriverStatus = (typeof LIVE_DRIVER_STATUSES)[number];

/** The map's bounds; each edge left out is the world's. */
export class LiveViewQueryDto {
  @ApiPropertyOptional({ example: 52.3, minimum: -90, maximum: 90 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber()
  @Min(-90)
  @Max(90)
  min_latitude?: number;

  @ApiPropertyOptional({ example: 13.0, minimum: -180, maximum: 180 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber()
  @Min(-180)
  @Max(180)
  min_longitude?: number;

  @ApiPropertyOptional({ example: 52.7, minimum: -90, maximum: 90 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber()
  @Min(-90)
  @Max(90)
  max_latitude?: number;

  @ApiPropertyOptional({ example: 13.8, minimum: -180, maximum: 180 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber()
  @Min(-180)
  @Max(180)
  max_longitude?: number;
}

export class LiveDriverDto {
  @ApiProperty({ example: 7, description: "The driver's user id" }) id!: number;
  @ApiProperty({ example: 52.5219 }) latitude!: number;
  @ApiProperty({ example: 13.4132 }) longitude!: number;
  @ApiProperty({
    enum: LIVE_DRIVER_STATUSES,
    example: 'available',
    description: 'on_ride: assigned to a ride that is not over; available: online, approved and free; offline: anything else (offline, not approved)',
  })
  status!: LiveDriverStatus;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'The ride the driver is assigned to' }) ride_id!: string | null;
  @ApiProperty({ example: '2026-01-01T12:00:00.000Z', description: 'When this position was heard' }) at!: string;
}

export class OpenRequestPinDto {
  @ApiProperty({ format: 'uuid', description: "The ride's id" }) id!: string;
  @ApiProperty({ example: 52.5219, description: 'The pickup' }) latitude!: number;
  @ApiProperty({ example: 13.4132 }) longitude!: number;
  @ApiProperty({ example: '2026-01-01T11:58:00.000Z' }) created_at!: string;
}

export class LiveViewResponseDto {
  @ApiProperty({ type: [LiveDriverDto], description: 'Drivers heard within DRIVER_LOCATION_MAX_AGE_SECONDS, at most 2,000' })
  drivers!: LiveDriverDto[];
  @ApiProperty({ type: [OpenRequestPinDto], description: 'Requests drivers may bid on, at most 2,000' })
  open_requests!: OpenRequestPinDto[];
}
