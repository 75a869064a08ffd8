import { DomainError } from '../../common/errors/domain.error';

export type RideErrorCode =
  | 'RIDE_NOT_FOUND'
  | 'ACTIVE_RIDE_EXISTS'
  | 'RIDE_NOT_REQUESTED'
  | 'INVALID_STATUS_TRANSITION'
  | 'RIDE_NOT_CANCELLABLE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'INVALID_RIDE_REQUEST'
  | 'RIDE_NOT_COMPLETED'
  | 'TIP_ALREADY_PAID'
  | 'TIP_WINDOW_CLOSED'
  | 'SCHEDULED_RIDE_LIMIT'
  | 'RIDE_ALREADY_RATED'
  | 'RATING_WINDOW_CLOSED'
  | 'WRONG_PIN'
  | 'TOO_MANY_WRONG_PINS'
  | 'NO_SHOW_TOO_EARLY'
  | 'CASH_RIDE_NOT_REFUNDABLE';

export const RIDE_MESSAGES: Record<RideErrorCode, string> = {
  RIDE_NOT_FOUND: 'Ride not found',
  ACTIVE_RIDE_EXISTS: 'You already have a ride in progress',
  RIDE_NOT_REQUESTED: 'Ride is no longer open for bids',
  INVALID_STATUS_TRANSITION: 'This status change is not allowed for the ride',
  RIDE_NOT_CANCELLABLE: 'Ride can no longer be cancelled',
  IDEMPOTENCY_KEY_REUSED: 'Idempotency-Key was already used with a different request body',
  INVALID_RIDE_REQUEST: 'Invalid ride request',
  RIDE_NOT_COMPLETED: 'Ride is not completed',
  TIP_ALREADY_PAID: 'Ride was already tipped',
  TIP_WINDOW_CLOSED: 'Tips are accepted only within 24 hours of completion',
  SCHEDULED_RIDE_LIMIT: 'You already have the maximum number of scheduled rides',
  RIDE_ALREADY_RATED: 'You have already rated this ride',
  RATING_WINDOW_CLOSED: 'The time to rate this ride has passed',
  WRONG_PIN: 'Wrong PIN',
  TOO_MANY_WRONG_PINS: 'Too many wrong PINs',
  NO_SHOW_TOO_EARLY: 'Wait for the passenger a little longer',
  CASH_RIDE_NOT_REFUNDABLE: 'Cash rides cannot be refunded through the service',
};

export class RideError extends DomainError<RideErrorCode> {
  constructor(code: RideErrorCode, message: string = RIDE_MESSAGES[code], details?: ReadonlyArray<{ field: string; message: string }>) {
    super(code, message, details);
  }

  /** A refusal about one request field (rendered with details naming it). */
  static field(code: RideErrorCode, field: string, message: string = RIDE_MESSAGES[code]): RideError {
    return new RideError(code, message, [{ field, message }]);
  }
}
