import { DomainError } from '../../common/errors/domain.error';

export type TripSharingErrorCode = 'SHARE_RIDE_NOT_FOUND' | 'SHARE_RIDE_ENDED' | 'SHARED_RIDE_NOT_FOUND';

export const TRIP_SHARING_MESSAGES: Record<TripSharingErrorCode, string> = {
  // Anyone but the ride's passenger is told the ride does not exist (CONTRACT §2).
  SHARE_RIDE_NOT_FOUND: 'Ride not found',
  SHARE_RIDE_ENDED: 'Ride has already ended',
  // An unknown, revoked or ended link: one answer for all, so a probe learns nothing.
  SHARED_RIDE_NOT_FOUND: 'Shared ride not found',
};

export class TripSharingError extends DomainError<TripSharingErrorCode> {
  constructor(code: TripSharingErrorCode, message: string = TRIP_SHARING_MESSAGES[code]) {
    super(code, message);
  }
}
