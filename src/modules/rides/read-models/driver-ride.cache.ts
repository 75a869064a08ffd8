import { Injectable } from '@nestjs/common';
import { BatchLoader } from '../../../common/cache/batch-loader';
import { ReadThroughCache } from '../../../common/cache/read-through-cache';
import type { DomainEventMap } from '../../../common/events/domain-events';
import { EventBus } from '../../../common/events/event-bus';
import { OnDomainEvent } from '../../../common/events/on-domain-event';
import { AppConfig } from '../../../config/app-config';
import { RidesRepository } from './rides.repository';

export interface DriverRideRef {
  rideId: string;
  passengerId: number | null;
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
 * Since the events keep entries right (and the cache is dropped when the bus reconnects after an
 * outage), DRIVER_RIDE_CACHE_MS only bounds the damage of an event lost some other way; each expiry is
 * a database read, and 30 s made 333 a second from 10,000 drivers (20,000 at once, 30 s after they
 * came online together).
 */
@Injectable()
export class DriverRideCache {
  private readonly cache: ReadThroughCache<number, DriverRideRef | null>;
  private readonly loader: BatchLoader<number, DriverRideRef>;

  constructor(rides: RidesRepository, config: AppConfig, events: EventBus) {
    this.cache = new ReadThroughCache({ ttlMs: config.driverRideCacheMs, maxEntries: config.driverRideCacheMaxEntries });
    // Ride events published while the bus was down never arrive: every assignment is read again.
    events.onResumed(() => this.cache.clear());
    this.loader = new BatchLoader<number, DriverRideRef>({
      loadOne: async (driverId) => {
        const row = await rides.findAssignedRefOfDriver(driverId);
        return row && { rideId: row.id, passengerId: row.passenger_id };
      },
      loadMany: async (driverIds) => {
        const rows = await rides.findAssignedRefsOfDrivers(driverIds);
        return new Map(rows.map((row) => [row.driver_id, { rideId: row.id, passengerId: row.passenger_id }]));
      },
    });
  }

  @OnDomainEvent('ride.accepted')
  private rideAccepted(e: DomainEventMap['ride.accepted']): void {
    this.set(e.driver_id, { rideId: e.ride_id, passengerId: e.passenger_id });
  }

  @OnDomainEvent('ride.status_changed')
  private rideStatusChanged(e: DomainEventMap['ride.status_changed']): void {
    if (e.driver_id === null) return;
    this.set(e.driver_id, e.status === 'completed' ? null : { rideId: e.ride_id, passengerId: e.passenger_id });
  }

  @OnDomainEvent('ride.cancelled')
  private rideCancelled(e: DomainEventMap['ride.cancelled']): void {
    if (e.driver_id !== null) this.set(e.driver_id, null);
  }

  /** The cached ride while fresh (null: none), undefined when only get() can tell. */
  peek(driverId: number): DriverRideRef | null | undefined {
    return this.cache.peek(driverId);
  }

  async get(driverId: number): Promise<DriverRideRef | null> {
    const ref = await this.cache.get(driverId, async () => (await this.loader.load(driverId)) ?? null);
    return ref ?? null;
  }

  set(driverId: number, ref: DriverRideRef | null): void {
    this.cache.put(driverId, ref);
  }
}
