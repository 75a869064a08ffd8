import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { RIDE_TYPES, RideType } from '../fare-estimate';
import { LocationDto } from './location.dto';

/**
 * A time must say which instant it is: without Z or an offset, `2026-11-22T12:00:00` would be read in
 * the server's time zone by one check and in the database session's by another.
 */
export const WITH_OFFSET = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** The ride payload fields shared by estimate and book (spec "Ride payload fields"). */
export abstract class RideRequestFieldsDto {
  @ApiProperty({ type: LocationDto })
  @IsObject()
  @ValidateNested()
  @Type(() => LocationDto)
  pickup!: LocationDto;

  @ApiProperty({ type: LocationDto })
  @IsObject()
  @ValidateNested()
  @Type(() => LocationDto)
  dropoff!: LocationDto;

  @ApiPropertyOptional({ type: LocationDto, description: 'round_trip only: where the return leg ends (default: back to pickup)' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => LocationDto)
  return_location?: LocationDto;

  @ApiProperty({ enum: RIDE_TYPES, example: 'one_way' })
  @IsIn(RIDE_TYPES as RideType[], { message: `ride_type must be one of ${RIDE_TYPES.join(', ')}` })
  ride_type!: RideType;

  @ApiPropertyOptional({ example: 1, default: 1, description: 'At most the category max_passengers; 0 allowed for delivery' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  passenger_count?: number;

  @ApiPropertyOptional({ example: 0, default: 0, description: 'Children among the passengers (not above passenger_count)' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  children?: number;

  @ApiPropertyOptional({ example: 120, description: 'per_hour only, and required there: the booked time in minutes' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(24 * 60)
  duration_minutes?: number;

  @ApiPropertyOptional({ example: '2026-11-22T12:00:00.000Z', description: 'per_hour only: when the booking ends (future)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(WITH_OFFSET, { message: 'end_scheduled_at must carry Z or a UTC offset (e.g. 2026-11-22T12:00:00Z or +01:00)' })
  end_scheduled_at?: string;

  @ApiPropertyOptional({ example: '2026-11-22T18:00:00.000Z', description: 'round_trip only: when the return leg starts (future)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(WITH_OFFSET, { message: 'return_scheduled_at must carry Z or a UTC offset (e.g. 2026-11-22T12:00:00Z or +01:00)' })
  return_scheduled_at?: string;

  @ApiPropertyOptional({ example: 'WELCOME10', description: 'Applied when valid; otherwise the estimate says why not' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  promo_code?: string;
}
