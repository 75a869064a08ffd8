import { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { JsonObject } from '../../../common/events/domain-events';

/**
 * What the gateway needs from the marketplace on connect: the user's non-final ride as the REST
 * active-ride endpoint returns it and, for a passenger whose ride is requested, its current bids.
 * Bound to RidesService in RealtimeModule; a port so the gateway depends on this one method only.
 */
export abstract class RideSnapshotPort {
  abstract getActiveRideSnapshot(user: AuthenticatedUser): Promise<{ ride: JsonObject | null; bids?: JsonObject[] }>;
}
