import { toMajor } from '../../../common/money';
import { RideError } from '../rides.errors';

/** The lowest offer an estimate allows: MIN_OFFER_PERCENT % of its total, rounded up to the minor unit. */
export function minimumOfferMinor(estimateTotalMinor: number, minOfferPercent: number): number {
  const basisPoints = Math.round(minOfferPercent * 100);
  return Math.ceil((estimateTotalMinor * basisPoints) / 10000);
}

/** Booking (and a first offer on a ride booked without one): at least MIN_OFFER_PERCENT % of the estimated total. */
export function checkOfferedFare(offeredMinor: number, estimateTotalMinor: number, minOfferPercent: number): void {
  const minimum = minimumOfferMinor(estimateTotalMinor, minOfferPercent);
  if (offeredMinor >= minimum) return;
  throw RideError.field(
    'INVALID_RIDE_REQUEST',
    'offered_fare',
    `offered_fare must be at least ${money(minimum)} (${minOfferPercent}% of the estimated total ${money(estimateTotalMinor)})`,
  );
}

/** A raise: strictly above the current offer (the first one: as at booking). */
export function checkRaisedOffer(offeredMinor: number, currentMinor: number | null, estimateTotalMinor: number, minOfferPercent: number): void {
  if (currentMinor === null) return checkOfferedFare(offeredMinor, estimateTotalMinor, minOfferPercent);
  if (offeredMinor > currentMinor) return;
  throw RideError.field('INVALID_RIDE_REQUEST', 'offered_fare', `offered_fare must be higher than the current offer (${money(currentMinor)})`);
}

function money(minor: number): string {
  return toMajor(minor).toFixed(2);
}
