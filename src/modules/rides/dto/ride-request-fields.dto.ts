import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  isIn,
  IsInt,
  isInt,
  IsISO8601,
  isISO8601,
  IsObject,
  IsOptional,
  IsString,
  isString,
  Max,
  max,
  MaxLength,
  maxLength,
  Min,
  min,
  ValidateNested,
} from 'class-validator';
import type { FastField } from '../../../common/http/fast-validation';
import { RIDE_TYPES, RideType } from '../fare/fare-estimate';
import { LocationDto } from './location.dto';

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
  end_scheduled_at?: string;

  @ApiPropertyOptional({ example: '2026-11-22T18:00:00.000Z', description: 'round_trip only: when the return leg starts (future)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  return_scheduled_at?: string;

  @ApiPropertyOptional({ example: 'WELCOME10', description: 'Applied when valid; otherwise the estimate says why not' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  promo_code?: string;
}

const intIn = (low: number, high: number) => (v: unknown) => isInt(v) && min(v, low) && max(v, high);

/** The decorators above as fast-validation rules, for the DTOs that extend this class (see registerFastValidation). */
export const RIDE_REQUEST_FAST_FIELDS: Record<keyof RideRequestFieldsDto, FastField> = {
  pickup: { nested: LocationDto },
  dropoff: { nested: LocationDto },
  return_location: { optional: true, nested: LocationDto },
  ride_type: { test: (v) => isIn(v, RIDE_TYPES) },
  passenger_count: { optional: true, test: intIn(0, 100) },
  children: { optional: true, test: intIn(0, 100) },
  duration_minutes: { optional: true, test: intIn(1, 24 * 60) },
  end_scheduled_at: { optional: true, test: (v) => isISO8601(v, { strict: true }) },
  return_scheduled_at: { optional: true, test: (v) => isISO8601(v, { strict: true }) },
  promo_code: { optional: true, test: (v) => isString(v) && maxLength(v, 40) },
};
