import { Injectable } from '@nestjs/common';
import { ReadThroughCache } from '../../../common/cache/read-through-cache';
import type { DomainEventMap } from '../../../common/events/domain-events';
import type { Serialized } from '../../../common/http/serialized';
import { OnDomainEvent } from '../../../common/events/on-domain-event';
import { AppConfig } from '../../../config/app-config';
import { RidesRepository } from './rides.repository';
import { rideToJson } from './ride-view';
import type { RideView } from './ride-view';

/** A ride as GET /rides/{id} returns it, with the two parties who may read it from the cache. */
export interface CachedRide {
  json: RideView;
  /** `json` serialised for its passenger, made on first use: hits then skip JSON.stringify. */
  body?: Serialized<RideView>;
  /** The same for its driver (no passenger-only fields). */
  driverBody?: Serialized<RideView>;
  passengerId: number | null;
  driverId: number | null;
}

/**
 * Ride details from memory for at most RIDE_CACHE_MS. Whoever changes a ride on this instance
 * forgets it right after the commit (before answering, so the writer reads its own write); the ride
 * events forget it on every instance (they cross instances over Redis). The cached object is the
 * same for every reader, so visibility is decided per request by RidesService.
 */
@Injectable()
export class RideViewCache {
  private readonly cache: ReadThroughCache<string, CachedRide>;

  constructor(
    private readonly rides: RidesRepository,
    config: AppConfig,
  ) {
    this.cache = new ReadThroughCache({ ttlMs: config.rideCacheMs, maxEntries: config.rideCacheMaxEntries });
  }

  /** The cached ride if fresh (no promise, no database). Keys are lower-case UUIDs: any other string misses. */
  peek(rideId: string): CachedRide | undefined {
    return this.cache.peek(rideId);
  }

  /** The ride from the cache or the database (one query shared by concurrent misses); undefined if none. */
  get(rideId: string): Promise<CachedRide | undefined> {
    return this.cache.get(rideId, async () => {
      const row = await this.rides.findView(rideId);
      return row ? { json: rideToJson(row), passengerId: row.passenger_id, driverId: row.driver_id } : undefined;
    });
  }

  @OnDomainEvent(
    'ride.accepted',
    'ride.status_changed',
    'ride.cancelled',
    'ride.expired',
    'ride.dispatched',
    'ride.offer_raised',
    'ride.tipped',
    'ride.payment_changed',
  )
  private forget(e: { ride_id: string }): void {
    this.cache.invalidate(e.ride_id.toLowerCase());
  }

  /** The rated ride shows the stars; every ride showing the rated user shows their new average. */
  @OnDomainEvent('ride.rated')
  private rated(e: DomainEventMap['ride.rated']): void {
    this.cache.invalidate(e.ride_id.toLowerCase());
    if (e.rated_user_id !== null) this.forgetRidesOf(e.rated_user_id);
  }

  /** Rides show their passenger's and driver's public profiles. */
  @OnDomainEvent('user.profile_changed', 'driver.profile_changed')
  private profileChanged(e: { user_id: number }): void {
    this.forgetRidesOf(e.user_id);
  }

  /** A deleted account drops out of the rides it shared (its id becomes NULL there). */
  @OnDomainEvent('user.access_revoked')
  private accessRevoked(e: DomainEventMap['user.access_revoked']): void {
    if (e.reason === 'deleted') this.forgetRidesOf(e.user_id);
  }

  /** After the user's public profile changed or the account went: every ride showing them. */
  private forgetRidesOf(userId: number): void {
    this.cache.invalidateWhere((ride) => ride.passengerId === userId || ride.driverId === userId);
  }
}
