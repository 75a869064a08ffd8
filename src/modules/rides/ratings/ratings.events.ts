import type { RideView } from '../read-models/ride-view';
import type { RideRatingView } from './ride-rating.view';

/** The rating event, added to the domain events by declaration merging (see ../rides.events.ts). */
declare module '../../../common/events/domain-events' {
  interface DomainEventMap {
    /** Published by the `rate` command (RideTransitionsService) after its commit. */
    'ride.rated': {
      ride_id: string;
      passenger_id: number | null;
      driver_id: number | null;
      /** Whose average changed: the driver when the passenger rated, the passenger when the driver did (null: account deleted). */
      rated_user_id: number | null;
      rating: RideRatingView;
      ride: RideView;
    };
  }
}

/** Events this folder publishes. */
export const RATING_EVENTS = ['ride.rated'] as const;
