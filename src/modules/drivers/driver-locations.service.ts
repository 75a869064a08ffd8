import { Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { EventBus } from '../../common/events/event-bus';
import { AppConfig } from '../../config/app-config';
import type { DriverRideRef } from '../rides/rides.service';
import { RidesService } from '../rides/rides.service';
import { DriversRepository, PendingLocation } from './drivers.repository';
import { LivePositionStore } from './live-positions.store';
import { DriverMatchingService } from './matching/driver-matching.service';

export interface LocationPing {
  latitude: number;
  longitude: number;
  heading?: number;
  speed?: number;
  accuracy?: number;
}

/** Drivers per UPDATE: 7 arrays as parameters, whatever the fleet size. */
export const FLUSH_CHUNK_SIZE = 1000;
/** Chunks written at once, so 100,000 pending drivers take ~25 sequential statements, not 100. */
const FLUSH_CONCURRENCY = 4;
/** A position whose chunk failed this many flushes in a row is dropped (the next ping replaces it). */
const MAX_FLUSH_ATTEMPTS = 3;
const STORE_FAILURE_LOG_MS = 10_000;

/**
 * The location heartbeat, the hottest write path: no database write per ping. The latest position
 * goes to the live-position store before the ping is answered (memory: synchronously; Redis: one
 * pipelined round trip), so matching and the driver's views see it at once on every instance that
 * shares the store. The table is the durable copy: every LOCATION_FLUSH_MS the pending positions
 * are written in chunks of FLUSH_CHUNK_SIZE (and once more on shutdown). A crash loses at most one
 * interval of durable positions, which the next pings replace anyway.
 */
@Injectable()
export class DriverLocationsService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DriverLocations');
  private pending = new Map<number, PendingLocation>();
  /** Consecutive failed flushes per driver whose position is waiting to be retried. */
  private readonly failures = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private storeFailures = 0;
  private storeFailureLoggedAt = 0;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly drivers: DriversRepository,
    private readonly rides: RidesService,
    private readonly events: EventBus,
    private readonly config: AppConfig,
    private readonly store: LivePositionStore,
    private readonly matching: DriverMatchingService,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), this.config.locationFlushMs);
    this.timer.unref();
    this.pruneTimer = setInterval(() => void this.prune(), this.maxAgeMs);
    this.pruneTimer.unref();
  }

  private get maxAgeMs(): number {
    return this.config.driverLocationMaxAgeSeconds * 1000;
  }

  /** Before the database pool closes (that happens in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.flush();
    // A flush already running when shutdown began did not include the pings that came after it.
    if (this.pending.size > 0) await this.flush();
  }

  /**
   * Records the ping and tells the passenger of the driver's current ride, if any. Settles once the
   * live store has the position.
   */
  async record(driverId: number, ping: LocationPing): Promise<PendingLocation> {
    const location: PendingLocation = {
      driverId,
      latitude: ping.latitude,
      longitude: ping.longitude,
      heading: ping.heading ?? null,
      speed: ping.speed ?? null,
      accuracy: ping.accuracy ?? null,
      at: new Date(),
    };
    this.pending.set(driverId, location);
    // Local first: this instance matches the driver on this ping whatever happens to the shared store.
    this.matching.heard(driverId, location.latitude, location.longitude, location.at);
    const saved = this.store.save(location);

    // The response does not wait for the passenger lookup (a cache miss reads the database); a
    // cached answer (nearly every ping) is used at once.
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
    try {
      await saved;
    } catch (err) {
      // The table still gets the position at the next flush, and this instance's matcher has it already.
      this.storeWriteFailed(err);
    }
    return location;
  }

  /** Every heartbeat fails while Redis is down: one log line per interval, with how many failed. */
  private storeWriteFailed(err: unknown): void {
    this.storeFailures += 1;
    const now = Date.now();
    if (now - this.storeFailureLoggedAt < STORE_FAILURE_LOG_MS) return;
    this.logger.error({ err, msg: 'Live position store writes failed', count: this.storeFailures });
    this.storeFailures = 0;
    this.storeFailureLoggedAt = now;
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

  /** The driver's newest heartbeat from the live store (any instance sharing it), if it still has one. */
  async latestOf(driverId: number): Promise<PendingLocation | undefined> {
    try {
      return await this.store.latest(driverId);
    } catch (err) {
      this.logger.error({ err, msg: 'Live position store read failed', driver_id: driverId });
      return this.pending.get(driverId);
    }
  }

  private async prune(): Promise<void> {
    try {
      await this.store.prune();
    } catch (err) {
      this.logger.error({ err, msg: 'Live position prune failed' });
    }
  }

  /**
   * Writes every pending position in chunks sorted by driver id, a few chunks at a time; concurrent
   * calls share one flush. A failed chunk goes back to pending (unless a newer ping came) without
   * holding up the others, and is given up after MAX_FLUSH_ATTEMPTS.
   */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.pending.size === 0) return Promise.resolve();
    const batch = [...this.pending.values()].sort((a, b) => a.driverId - b.driverId);
    this.pending = new Map();
    const chunks: PendingLocation[][] = [];
    for (let i = 0; i < batch.length; i += FLUSH_CHUNK_SIZE) chunks.push(batch.slice(i, i + FLUSH_CHUNK_SIZE));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < chunks.length) {
        const chunk = chunks[next++];
        try {
          await this.drivers.writeLocations(chunk);
          for (const p of chunk) this.failures.delete(p.driverId);
        } catch (err) {
          this.requeue(chunk, err);
        }
      }
    };
    const workers = Array.from({ length: Math.min(FLUSH_CONCURRENCY, chunks.length) }, worker);
    this.flushing = Promise.all(workers)
      .then(() => undefined)
      .finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private requeue(chunk: PendingLocation[], err: unknown): void {
    let dropped = 0;
    for (const p of chunk) {
      const attempts = (this.failures.get(p.driverId) ?? 0) + 1;
      if (attempts >= MAX_FLUSH_ATTEMPTS) {
        this.failures.delete(p.driverId);
        dropped += 1;
      } else {
        this.failures.set(p.driverId, attempts);
        if (!this.pending.has(p.driverId)) this.pending.set(p.driverId, p);
      }
    }
    this.logger.error({ err, msg: 'Location flush chunk failed', count: chunk.length, dropped });
  }
}
