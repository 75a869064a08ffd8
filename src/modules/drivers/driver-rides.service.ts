import { NEARBY_DEFAULT_RADIUS_KM } from './dto/nearby-rides-query.dto';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { AppConfig } from '../../config/app-config';
import type { GeoPoint } from '../../common/events/domain-events';
import { ActiveRideSnapshot, DriverEarningsView, NearbyPage, RidesService } from '../rides/rides.service';
import { DriverLocationsService } from './driver-locations.service';
import { DriversService } from './drivers.service';
import { DriverError } from './drivers.errors';
import type { DriverRow } from './drivers.repository';

const NEARBY_LIMIT = 50;

/** Nearby is for approved drivers only (checked before the point is looked up). */
function approved(driver: DriverRow): DriverRow {
  if (driver.status !== 'approved') throw new DriverError('DRIVER_NOT_APPROVED');
  return driver;
}

/** The driver's view of rides: nearby requests, the active ride, earnings. */
@Injectable()
export class DriverRidesService {
  constructor(
    private readonly drivers: DriversService,
    private readonly locations: DriverLocationsService,
    private readonly rides: RidesService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Requested rides the driver could take, nearest first. The point defaults to the driver's latest
   * position (the live store, which has the newest heartbeat from any instance, then the table). Approved drivers only. The answer
   * is the serialised JSON array (the hot path skips JSON.stringify).
   */
  async nearby(driverId: number, latitude: number | undefined, longitude: number | undefined, radiusKm: number | undefined): Promise<NearbyPage> {
    // The usual call (a cached driver who sends the point) reads nothing.
    const cached = this.drivers.peekDriverCached(driverId);
    if (cached && latitude !== undefined && longitude !== undefined) return this.page(approved(cached), { latitude, longitude }, radiusKm);
    return this.nearbyLoaded(driverId, latitude, longitude, radiusKm);
  }

  private async nearbyLoaded(driverId: number, latitude: number | undefined, longitude: number | undefined, radiusKm: number | undefined): Promise<NearbyPage> {
    const driver = approved(await this.drivers.getDriverCached(driverId));
    let point = latitude !== undefined && longitude !== undefined ? { latitude, longitude } : undefined;
    if (!point) {
      const latest = await this.locations.latestOf(driverId);
      if (latest) point = latest;
      else if (driver.last_latitude !== null && driver.last_longitude !== null) {
        point = { latitude: driver.last_latitude, longitude: driver.last_longitude };
      }
    }
    if (!point) throw new DriverError('DRIVER_LOCATION_UNKNOWN');
    return this.page(driver, point, radiusKm);
  }

  private page(driver: DriverRow, point: GeoPoint, radiusKm: number | undefined): Promise<NearbyPage> {
    return this.rides.findRequestedNearBody({
      latitude: point.latitude,
      longitude: point.longitude,
      radiusKm: radiusKm ?? NEARBY_DEFAULT_RADIUS_KM,
      vehicleCategoryId: driver.vehicle_category_id,
      limit: NEARBY_LIMIT,
    });
  }

  active(user: AuthenticatedUser): Promise<ActiveRideSnapshot> {
    return this.rides.getActiveRideSnapshot(user);
  }

  earnings(driverId: number, page: number, limit: number): Promise<DriverEarningsView> {
    return this.rides.getDriverEarnings(driverId, this.config.currency, page, limit);
  }
}
