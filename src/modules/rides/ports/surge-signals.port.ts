import type { GeoPoint } from '../../../common/events/domain-events';

/**
 * Live demand and supply around a pickup, for surge pricing (CONTRACT.md §11). Answered synchronously
 * from each instance's memory (the open-requests index and the matcher's set of available drivers):
 * an estimate never runs a query for it. Bound by the composition root
 * (src/bootstrap/marketplace-ports.module.ts).
 */
export abstract class SurgeSignalsPort {
  /** Rides in `requested` of the category whose pickup lies within radiusKm of the point. */
  abstract openRequestsNear(point: GeoPoint, radiusKm: number, vehicleCategoryId: number): number;
  /**
   * Drivers who would receive this ride's ride_requested: online, approved, free, of the category
   * (or with none set), heard from within DRIVER_LOCATION_MAX_AGE_SECONDS, within radiusKm.
   */
  abstract availableDriversNear(point: GeoPoint, radiusKm: number, vehicleCategoryId: number): number;
}
