import type { BidView } from '../../src/modules/rides/bids/bid-view';
import type { RideView } from '../../src/modules/rides/read-models/ride-view';

/**
 * Routing tests publish events by hand with only the fields a test looks at; the gateway forwards
 * `ride` and `bid` as they are. These name the one place such partial objects pass as whole views.
 */
export function partialRide(fields: Record<string, unknown>): RideView {
  return fields as unknown as RideView;
}

export function partialBid(fields: Record<string, unknown>): BidView {
  return fields as unknown as BidView;
}
