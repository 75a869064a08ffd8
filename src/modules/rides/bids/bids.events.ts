import type { BidView } from './bid-view';
import type { RideView } from '../read-models/ride-view';

/** The bidding events, added to the domain events by declaration merging (see ../rides.events.ts). */
declare module '../../../common/events/domain-events' {
  interface DomainEventMap {
    'bid.submitted': {
      ride_id: string;
      passenger_id: number;
      driver_id: number;
      bid: BidView;
    };
    /** Published by the `accept` transition (RideTransitionsService). */
    'ride.accepted': {
      ride_id: string;
      passenger_id: number;
      driver_id: number;
      rejected_driver_ids: number[];
      ride: RideView;
    };
  }
}

/** Events this module publishes. */
export const BID_EVENTS = ['bid.submitted', 'ride.accepted'] as const;
