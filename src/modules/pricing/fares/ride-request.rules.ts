import { CommonError } from '../../../common/errors/common.errors';
import type { VehicleCategoryEntity } from '../entities/vehicle-category.entity';
import type { RideRequestFieldsDto } from '../dto/ride-request-fields.dto';

const MAX_SCHEDULE_AHEAD_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The cross-field rules of a ride request that DTO decorators cannot express. Each failure is a
 * 400 naming the field. `category` is checked when the request names one.
 */
export function checkRideRequest(dto: RideRequestFieldsDto, category: VehicleCategoryEntity | undefined, now = new Date()): void {
  const type = dto.ride_type;
  if (type === 'per_hour' && dto.duration_minutes === undefined) {
    fail('duration_minutes', 'duration_minutes is required when ride_type is per_hour');
  }
  if (type !== 'per_hour' && dto.duration_minutes !== undefined) {
    fail('duration_minutes', 'duration_minutes is only allowed when ride_type is per_hour');
  }
  if (type !== 'per_hour' && dto.end_scheduled_at !== undefined) {
    fail('end_scheduled_at', 'end_scheduled_at is only allowed when ride_type is per_hour');
  }
  if (type !== 'round_trip' && dto.return_location !== undefined) {
    fail('return_location', 'return_location is only allowed when ride_type is round_trip');
  }
  if (type !== 'round_trip' && dto.return_scheduled_at !== undefined) {
    fail('return_scheduled_at', 'return_scheduled_at is only allowed when ride_type is round_trip');
  }
  checkFuture('end_scheduled_at', dto.end_scheduled_at, now);
  checkFuture('return_scheduled_at', dto.return_scheduled_at, now);
  if (dto.end_scheduled_at !== undefined && dto.duration_minutes !== undefined) {
    // The booking starts now, so it cannot end before the booked time has run.
    const earliest = now.getTime() + (dto.duration_minutes - 1) * 60_000;
    if (Date.parse(dto.end_scheduled_at) < earliest) {
      fail('end_scheduled_at', 'end_scheduled_at must not be earlier than now plus duration_minutes');
    }
  }

  const passengers = dto.passenger_count ?? 1;
  if (passengers < 1 && type !== 'delivery') fail('passenger_count', 'passenger_count must be at least 1');
  if ((dto.children ?? 0) > passengers) fail('children', 'children must not be greater than passenger_count');
  if (category && passengers > category.maxPassengers) {
    fail('passenger_count', `passenger_count must not be greater than ${category.maxPassengers} for this vehicle category`);
  }
}

function checkFuture(field: string, value: string | undefined, now: Date): void {
  if (value === undefined) return;
  const at = Date.parse(value);
  if (Number.isNaN(at)) fail(field, `${field} must be a valid ISO 8601 date`);
  if (at <= now.getTime()) fail(field, `${field} must be in the future`);
  if (at > now.getTime() + MAX_SCHEDULE_AHEAD_MS) fail(field, `${field} must be within 30 days`);
}

function fail(field: string, message: string): never {
  throw CommonError.validation(field, message);
}
