import { Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { EventBus } from '../../common/events/event-bus';
import { AppConfig } from '../../config/app-config';
import type { DriverRideRef } from '../rides/driver-ride.cache';
import { RidesService } from '../rides/rides.service';
import { DriversRepository, PendingLocation } from './drivers.repository';

export interface LocationPing {
  latitude: number;
  longitude: number;
  heading?: number;
  speed?: number;
  accuracy?: number;
}

const MAX_TRACKED = 500_000;

/**
 * The location heartbeat, the hottest write path: no database write per ping. The latest position
 * of each driver is kept in memory and every LOCATION_FLUSH_MS all pending positions are written in
 * one batched UPDATE (and once more on shutdown). A crash loses at most one interval of positions,
 * which the next pings replace anyway.
 */
@Injectable()
export class DriverLocationsService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DriverLocations');
  /** Latest known position per driver (flushed or not): nearby and profile read it first. */
  private readonly latest = new Map<number, PendingLocation>();
  private pending = new Map<number, PendingLocation>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly drivers: DriversRepository,
    private readonly rides: RidesService,
    private readonly events: EventBus,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), this.config.locationFlushMs);
    this.timer.unref();
  }

  /** Before the database pool closes (that happens in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  /** Records the ping and tells the passenger of the driver's current ride, if any. */
  record(driverId: number, ping: LocationPing): PendingLocation {
    const location: PendingLocation = {
      driverId,
      latitude: ping.latitude,
      longitude: ping.longitude,
      heading: ping.heading ?? null,
      speed: ping.speed ?? null,
      accuracy: ping.accuracy ?? null,
      at: new Date(),
    };
    if (this.latest.size >= MAX_TRACKED && !this.latest.has(driverId)) this.latest.clear();
    this.latest.set(driverId, location);
    this.pending.set(driverId, location);

    // The response does not wait for the passenger lookup (a cache miss reads the database); a
    // cached answer (nearly every ping) is used at once, without a promise.
    const cached = this.rides.peekAssignedRideOfDriver(driverId);
    if (cached === undefined) {
      this.rides
        .findAssignedRideOfDriverCached(driverId)
        .then((ride) => this.announce(ride, location))
        .catch((err: unknown) => this.announceFailed(err));
    } else {
      try {
        this.announce(cached, location);
      } catch (err) {
        this.announceFailed(err);
      }
    }
    return location;
  }

  private announceFailed(err: unknown): void {
    this.logger.error({ err, msg: 'Location announcement failed' });
  }

  private announce(ride: DriverRideRef | null, location: PendingLocation): void {
    if (ride?.passengerId == null) return;
    this.events.publish('driver.location_updated', {
      ride_id: ride.rideId,
      passenger_id: ride.passengerId,
      driver_id: location.driverId,
      location: {
        latitude: location.latitude,
        longitude: location.longitude,
        heading: location.heading,
        speed: location.speed,
        accuracy: location.accuracy,
        at: location.at.toISOString(),
      },
    });
  }

  /** The newest position this instance has seen for the driver (may not be flushed yet). */
  latestOf(driverId: number): PendingLocation | undefined {
    return this.latest.get(driverId);
  }

  /** Writes every pending position in one statement; concurrent calls share one flush. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.pending.size === 0) return Promise.resolve();
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.flushing = this.drivers
      .writeLocations(batch)
      .catch((err: unknown) => {
        // Put the positions back unless a newer one arrived meanwhile; the next tick retries.
        for (const p of batch) if (!this.pending.has(p.driverId)) this.pending.set(p.driverId, p);
        this.logger.error({ err, msg: 'Location flush failed', count: batch.length });
      })
      .finally(() => (this.flushing = undefined));
    return this.flushing;
  }
}
