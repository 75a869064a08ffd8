import { CommonError } from '../../../common/errors/common.errors';

/** Ride later (CONTRACT §11): how far ahead a pickup_at may be. */
export const PICKUP_AT_MIN_AHEAD_MS = 15 * 60_000;
export const PICKUP_AT_MAX_AHEAD_MS = 7 * 24 * 60 * 60_000;
/** The lower bound forgives a request's time in transit: "15 minutes from now" sent as such must pass. */
const PICKUP_AT_GRACE_MS = 30_000;

export const PICKUP_AT_RANGE_MESSAGE = 'pickup_at must be between 15 minutes and 7 days from now';

/** A booking's pickup_at, when it has one: 15 minutes to 7 days ahead, else a 400 naming the field. */
export function checkPickupAt(pickupAt: string | undefined, now = new Date()): void {
  if (pickupAt === undefined) return;
  const ahead = Date.parse(pickupAt) - now.getTime();
  if (Number.isNaN(ahead)) throw CommonError.validation('pickup_at', 'pickup_at must be a valid ISO 8601 date');
  if (ahead < PICKUP_AT_MIN_AHEAD_MS - PICKUP_AT_GRACE_MS || ahead > PICKUP_AT_MAX_AHEAD_MS) {
    throw CommonError.validation('pickup_at', PICKUP_AT_RANGE_MESSAGE);
  }
}
