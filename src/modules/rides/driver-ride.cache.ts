import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ReadThroughCache } from '../../common/cache/read-through-cache';
import { EventBus } from '../../common/events/event-bus';
import { AppConfig } from '../../config/app-config';
import { RidesRepository } from './repositories/rides.repository';

export interface DriverRideRef {
  rideId: string;
  passengerId: number | null;
}

/** Drivers looked up per query when many heartbeats miss at once (a start-up, a fleet coming online). */
const LOOKUP_BATCH = 1000;

interface Waiter {
  resolve: (ref: DriverRideRef | null) => void;
  reject: (err: unknown) => void;
}

/**
 * Which ride a driver is assigned to, for the location heartbeat: every ping must know whom to
 * tell, and asking the database each time would make the heartbeat a database read. Entries live
 * at most DRIVER_RIDE_CACHE_MS. This instance updates them at once when it accepts, finishes or cancels a ride,
 * and every instance updates them from the ride events (which cross instances over Redis), so a
 * heartbeat arriving at another instance right after an accept still reaches the passenger. A
 * database read that started before such an update never overwrites it (ReadThroughCache.put).
 * Misses within one turn of the event loop share one query: ten thousand drivers pinging after a
 * restart are a dozen reads, not ten thousand queued on the pool ahead of everything else.
 */
@Injectable()
export class DriverRideCache implements OnModuleDestroy {
  private readonly cache: ReadThroughCache<number, DriverRideRef | null>;
  private readonly unsubscribe: Array<() => void>;
  private pending: Map<number, Waiter[]> | undefined;

  constructor(
    private readonly rides: RidesRepository,
    events: EventBus,
    config: AppConfig,
  ) {
    this.cache = new ReadThroughCache({ ttlMs: config.driverRideCacheMs, maxEntries: config.driverRideCacheMaxEntries });
    this.unsubscribe = [
      events.subscribe('ride.accepted', (e) => this.set(e.driver_id, { rideId: e.ride_id, passengerId: e.passenger_id })),
      events.subscribe('ride.status_changed', (e) => {
        if (e.driver_id === null) return;
        this.set(e.driver_id, e.status === 'completed' ? null : { rideId: e.ride_id, passengerId: e.passenger_id });
      }),
      events.subscribe('ride.cancelled', (e) => {
        if (e.driver_id !== null) this.set(e.driver_id, null);
      }),
    ];
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe) off();
  }

  /** The cached ride while fresh (null: none), undefined when only get() can tell. */
  peek(driverId: number): DriverRideRef | null | undefined {
    return this.cache.peek(driverId);
  }

  async get(driverId: number): Promise<DriverRideRef | null> {
    const ref = await this.cache.get(driverId, () => this.lookUp(driverId));
    return ref ?? null;
  }

  private lookUp(driverId: number): Promise<DriverRideRef | null> {
    if (this.pending === undefined) {
      this.pending = new Map();
      setImmediate(() => void this.runLookups());
    }
    const waiters = this.pending.get(driverId) ?? [];
    this.pending.set(driverId, waiters);
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  }

  private async runLookups(): Promise<void> {
    const batch = this.pending!;
    this.pending = undefined;
    const ids = [...batch.keys()];
    for (let i = 0; i < ids.length; i += LOOKUP_BATCH) {
      const chunk = ids.slice(i, i + LOOKUP_BATCH);
      try {
        const rows = await this.rides.findAssignedRefsOfDrivers(chunk);
        const found = new Map(rows.map((row) => [row.driver_id, { rideId: row.id, passengerId: row.passenger_id }]));
        for (const id of chunk) for (const w of batch.get(id)!) w.resolve(found.get(id) ?? null);
      } catch (err) {
        for (const id of chunk) for (const w of batch.get(id)!) w.reject(err);
      }
    }
  }

  set(driverId: number, ref: DriverRideRef | null): void {
    this.cache.put(driverId, ref);
  }
}
