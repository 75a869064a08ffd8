import { GeoPoint } from '../../../common/events/domain-events';

/**
 * Who may receive ride_requested: approved, online drivers of the ride's category (or with none set)
 * whose last known location is within the radius. Read from the shared database, so the answer is
 * the same on every instance whichever instance a driver is connected to. Bound to DriversService.
 */
export abstract class NearbyDriversPort {
  abstract findOnlineDriverIdsNear(vehicleCategoryId: number, point: GeoPoint, radiusKm: number): Promise<number[]>;
}
