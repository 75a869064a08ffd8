import { NEARBY_DEFAULT_RADIUS_KM } from './dto/nearby-rides-query.dto';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { AppConfig } from '../../config/app-config';
import { ActiveRideSnapshot, DriverEarningsView, RidesService } from '../rides/rides.service';
import { DriverLocationsService } from './driver-locations.service';
import { DriversService } from './drivers.service';
import { DriverError } from './drivers.errors';

const NEARBY_LIMIT = 50;

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
  async nearby(driverId: number, latitude: number | undefined, longitude: number | undefined, radiusKm: number | undefined): Promise<string> {
    const driver = await this.drivers.getDriverCached(driverId);
    if (driver.status !== 'approved') throw new DriverError('DRIVER_NOT_APPROVED');
    let point = latitude !== undefined && longitude !== undefined ? { latitude, longitude } : undefined;
    if (!point) {
      const latest = await this.locations.latestOf(driverId);
      if (latest) point = latest;
      else if (driver.last_latitude !== null && driver.last_longitude !== null) {
        point = { latitude: driver.last_latitude, longitude: driver.last_longitude };
      }
    }
    if (!point) throw new DriverError('DRIVER_LOCATION_UNKNOWN');
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
