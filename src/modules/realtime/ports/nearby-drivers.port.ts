import { GeoPoint } from '../../../common/events/domain-events';

/**
 * Who may receive ride_requested: approved, online drivers of the ride's category (or with none set)
 * whose last heartbeat is within the radius and recent. Answered synchronously from the instance's
 * memory, which events from every instance keep current, so matching runs no query before the
 * first send. Bound to DriversService.
 */
export abstract class NearbyDriversPort {
  abstract findOnlineDriverIdsNear(vehicleCategoryId: number, point: GeoPoint, radiusKm: number): number[];
}
