import type { GeoPoint } from '../../common/events/domain-events';

/*
 * Live demand and supply around a pickup, for surge pricing (CONTRACT.md §11), answered synchronously
 * from each instance's memory: an estimate never runs a query for them.
 *
 * Why two ports, and why here: the counts live in modules above pricing in the layers (the
 * open-requests index in rides, the matcher in drivers), so pricing cannot call them; it states what
 * it needs, and the services that hold the answers implement it (`RidesService implements
 * SurgeDemandPort`, `DriversService implements SurgeSupplyPort`, checked by the compiler). The
 * composition root binds each port to that service once (src/bootstrap/marketplace-ports.module.ts),
 * so SurgeService calls the owning service directly: no adapter in between. One port each, because
 * one object cannot be both services.
 */

/** Demand: the rides module's open-requests index. */
export abstract class SurgeDemandPort {
  /** Rides in `requested` of the category whose pickup lies within radiusKm of the point. */
  abstract countOpenRequestsNear(point: GeoPoint, radiusKm: number, vehicleCategoryId: number): number;
}

/** Supply: the drivers module's matcher. */
export abstract class SurgeSupplyPort {
  /**
   * Drivers who would receive this ride's ride_requested: online, approved, free, of the category
   * (or with none set), heard from within DRIVER_LOCATION_MAX_AGE_SECONDS, within radiusKm.
   */
  abstract countAvailableDriversNear(point: GeoPoint, radiusKm: number, vehicleCategoryId: number): number;
}
