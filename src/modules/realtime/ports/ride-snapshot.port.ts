import { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { DomainEventMap } from '../../../common/events/domain-events';

/** The ride and the bid as the REST API returns them, named through the events that carry them. */
export type LiveRide = DomainEventMap['ride.requested']['ride'];
export type LiveBid = DomainEventMap['bid.submitted']['bid'];

/**
 * What the gateway needs from the marketplace on connect: the user's non-final ride as the REST
 * active-ride endpoint returns it and, for a passenger whose ride is requested, its current bids.
 * Bound to RidesService in RealtimeModule; a port so the gateway depends on this one method only.
 */
export abstract class RideSnapshotPort {
  abstract getActiveRideSnapshot(user: AuthenticatedUser): Promise<{ ride: LiveRide | null; bids?: LiveBid[] }>;
}
