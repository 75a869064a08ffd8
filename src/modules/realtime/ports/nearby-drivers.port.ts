import { GeoPoint } from '../../../common/events/domain-events';

/**
 * Who may receive ride_requested: approved, online drivers of the ride's category (or with none set)
 * whose last heartbeat is within the radius and recent. Read from the live-position store and the
 * database shared by every instance, so the answer is the same whichever instance a driver is
 * connected to. Bound to DriversService.
 */
export abstract class NearbyDriversPort {
  abstract findOnlineDriverIdsNear(vehicleCategoryId: number, point: GeoPoint, radiusKm: number): Promise<number[]>;
}
