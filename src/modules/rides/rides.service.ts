import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MaybeAsync, maybeAsync } from '../../common/async/maybe-async';
import { serialize, Serialized } from '../../common/http/serialized';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { toMajor } from '../../common/money';
import type { SurgeDemandPort } from '../pricing/surge-signals.port';
import { DriverRideCache, DriverRideRef } from './read-models/driver-ride.cache';

export type { DriverRideRef, OpenRequestPin };
import { BidsRepository } from './bids/bids.repository';
import { RidePaymentsRepository } from './read-models/ride-payments.repository';
import { RidesRepository } from './read-models/rides.repository';
import type { NearbyPage, NearbyQuery } from './read-models/open-requests/nearby-page';
import { NearbyPages } from './read-models/open-requests/nearby-pages';
import { RideWritesRepository } from './transitions/ride-writes.repository';
import { CachedRide, RideViewCache } from './read-models/ride-view.cache';
import { OpenRequestPin, OpenRequestsIndex } from './read-models/open-requests/open-requests.index';
import type { GeoPoint } from '../../common/events/domain-events';
import type { GeoBox } from '../../common/geo';
import type { BidView } from './bids/bid-view';
import type { PaymentMethod, RideView } from './read-models/ride-view';
import { RideError } from './rides.errors';
import { bidToJson } from './bids/bid-view';
import { iso, rideToJson, rideViewFor } from './read-models/ride-view';

export type { NearbyPage } from './read-models/open-requests/nearby-page';

const isPartyTo = (ride: CachedRide, user: AuthenticatedUser): boolean => ride.passengerId === user.id || ride.driverId === user.id;

/** The cached ride's body for one of its parties, serialised once per audience. */
function bodyFor(ride: CachedRide, user: AuthenticatedUser): Serialized<RideView> {
  if (ride.passengerId === user.id) return (ride.body ??= serialize(ride.json));
  return (ride.driverBody ??= serialize(rideViewFor(ride.json, user.id)));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** GET /driver/earnings (EarningsResponseDto describes it). */
export type DriverEarningsView = {
  currency: string;
  today: number;
  this_week: number;
  this_month: number;
  total: number;
  tips: number;
  rides_count: number;
  items: Array<{
    ride_id: string;
    ride_code: string;
    payment_method: PaymentMethod;
    fare: number;
    commission: number;
    earning: number;
    tip: number | null;
    currency: string;
    pickup_address: string;
    dropoff_address: string;
    completed_at: string;
  }>;
  page: number;
  limit: number;
};

export interface ActiveRideSnapshot {
  ride: RideView | null;
  /** Present for a passenger whose ride is still requested: its pending bids, cheapest first. */
  bids?: BidView[];
}

export interface RideHistoryPage {
  items: RideView[];
  page: number;
  limit: number;
  total: number;
}

/** Ride reads (details, active ride, history, nearby) and the read helpers other modules use; surge's demand. */
@Injectable()
export class RidesService implements SurgeDemandPort {
  constructor(
    private readonly rides: RidesRepository,
    private readonly bids: BidsRepository,
    private readonly driverRides: DriverRideCache,
    private readonly writes: RideWritesRepository,
    private readonly payments: RidePaymentsRepository,
    private readonly rideViews: RideViewCache,
    private readonly openRequests: OpenRequestsIndex,
    private readonly nearbyPages: NearbyPages,
  ) {}

  /**
   * The user's live ride exactly as GET /passenger/rides/active or /driver/rides/active returns
   * it; the WebSocket gateway sends the same object as ride_snapshot on connect. A ride booked for
   * later is not in it until dispatched (it is not the passenger's live ride, CONTRACT §11; the
   * scheduled list shows those).
   */
  async getActiveRideSnapshot(user: AuthenticatedUser): Promise<ActiveRideSnapshot> {
    if (user.role === 'driver') {
      const row = await this.rides.findAssignedViewOfDriver(user.id);
      return { ride: row ? rideViewFor(rideToJson(row), user.id) : null };
    }
    const row = await this.rides.findLiveViewOfPassenger(user.id);
    if (!row) return { ride: null };
    if (row.status !== 'requested') return { ride: rideToJson(row) };
    const bids = await this.bids.listForRide(row.id, true);
    return { ride: rideToJson(row), bids: bids.map(bidToJson) };
  }

  /**
   * Ride details for its passenger, its driver, or a driver with a pending bid on it; 404 for anyone
   * else. The passenger and the driver are served from the ride cache; anyone else (a bidder, or
   * nobody entitled) is decided by the database, so a cached ride never reaches a third party.
   * Returns the JSON body already serialised: a cache hit then costs no JSON.stringify, and, read
   * by its passenger or driver (nearly every call), no promise either.
   */
  getRideBodyFor(rideId: string, user: AuthenticatedUser): MaybeAsync<Serialized<RideView>> {
    return maybeAsync(() => {
      // The cache holds lower-case UUIDs only, so an id found as sent needs no check or lower-casing.
      const asSent = this.rideViews.peek(rideId);
      if (asSent && isPartyTo(asSent, user)) return bodyFor(asSent, user);
      if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
      const id = rideId.toLowerCase();
      return this.rideBodyOnMiss(id, user, asSent ?? this.rideViews.peek(id));
    });
  }

  private async rideBodyOnMiss(id: string, user: AuthenticatedUser, cached: CachedRide | undefined): Promise<Serialized<RideView>> {
    const ride = cached ?? (await this.rideViews.get(id));
    if (ride && isPartyTo(ride, user)) return bodyFor(ride, user);
    if (!ride) throw new RideError('RIDE_NOT_FOUND');
    const row = await this.rides.findViewVisibleTo(id, user.id);
    if (!row) throw new RideError('RIDE_NOT_FOUND');
    return serialize(rideViewFor(rideToJson(row), user.id));
  }

  /**
   * The ride as the API shows it, from the ride cache (RIDE_CACHE_MS; ride events keep it right),
   * as no passenger sees it (no start PIN), for a caller that decides itself who may see what of it
   * (trip sharing, operators); undefined if none.
   */
  async findRideView(rideId: string): Promise<RideView | undefined> {
    if (!isUuid(rideId)) return undefined;
    const id = rideId.toLowerCase();
    const ride = (this.rideViews.peek(id) ?? (await this.rideViews.get(id)))?.json;
    return ride && rideViewFor(ride, null);
  }

  async listPassengerHistory(user: AuthenticatedUser, status: string | undefined, page: number, limit: number): Promise<RideHistoryPage> {
    const { rows, total } = await this.rides.listPassengerHistory(user.id, status, (page - 1) * limit, limit);
    return { items: rows.map(rideToJson), page, limit, total };
  }

  /** GET /passenger/rides/scheduled: rides booked for later, not yet dispatched, soonest pickup first. */
  async listScheduledRides(user: AuthenticatedUser, page: number, limit: number): Promise<RideHistoryPage> {
    const { rows, total } = await this.rides.listScheduledOfPassenger(user.id, (page - 1) * limit, limit);
    return { items: rows.map(rideToJson), page, limit, total };
  }

  /**
   * Requested rides near a point, nearest first, each with distance_km (2 decimals), as the
   * JSON array GET /driver/rides/nearby answers (with its entity tag and gzip); built in NearbyPages.
   */
  async findRequestedNearBody(query: NearbyQuery): Promise<NearbyPage> {
    return this.nearbyPages.page(query);
  }

  /**
   * Surge's demand (SurgeDemandPort): open requests (requested, not expired) of the category whose
   * pickup lies within radiusKm of the point, counted in the open-requests index (no query; 0 before
   * its start-up load has begun to fill it).
   */
  countOpenRequestsNear(point: GeoPoint, radiusKm: number, vehicleCategoryId: number): number {
    return this.openRequests.countNear(point, radiusKm, vehicleCategoryId);
  }

  /** The operators' live view: at most `limit` open requests with their pickup in the box, from the open-requests index (no query). */
  openRequestsIn(box: GeoBox, limit: number): OpenRequestPin[] {
    return this.openRequests.openIn(box, limit);
  }

  /** The ride a driver is assigned to, from a cache kept right by the ride events (for the location heartbeat). */
  findAssignedRideOfDriverCached(driverId: number): Promise<DriverRideRef | null> {
    return this.driverRides.get(driverId);
  }

  /** The same answer without a promise while it is cached; undefined when only the above can tell. */
  peekAssignedRideOfDriver(driverId: number): DriverRideRef | null | undefined {
    return this.driverRides.peek(driverId);
  }

  /** Driver id → the ride each is assigned to while it is not over (start-up and reconciliation of the matcher). */
  async findAssignedRideIdsByDriver(): Promise<Map<number, string>> {
    const rows = await this.rides.findAssignedRideIdsByDriver();
    return new Map(rows.map((r) => [r.driver_id, r.id]));
  }

  /** GET /driver/earnings: totals per UTC period and the completed rides behind them, newest first. */
  async getDriverEarnings(driverId: number, currency: string, page: number, limit: number): Promise<DriverEarningsView> {
    const [totals, items] = await Promise.all([this.payments.totalsForDriver(driverId), this.payments.listForDriver(driverId, (page - 1) * limit, limit)]);
    return {
      currency,
      today: toMajor(totals.today),
      this_week: toMajor(totals.this_week),
      this_month: toMajor(totals.this_month),
      total: toMajor(totals.total),
      tips: toMajor(totals.tips),
      rides_count: totals.rides_count,
      items: items.map((i) => ({
        ride_id: i.ride_id,
        ride_code: i.ride_code,
        payment_method: i.method,
        fare: toMajor(i.fare_minor),
        commission: toMajor(i.commission_minor),
        earning: toMajor(i.driver_earning_minor),
        tip: i.tip_minor === null ? null : toMajor(i.tip_minor),
        currency: i.currency.trim(),
        pickup_address: i.pickup_address,
        dropoff_address: i.dropoff_address,
        completed_at: iso(i.completed_at ?? i.paid_at),
      })),
      page,
      limit,
    };
  }

  /** Whether the user is the passenger or the driver of a ride still under way (account deletion waits for it). */
  hasLiveRide(userId: number, manager?: EntityManager): Promise<boolean> {
    return this.rides.userHasLiveRide(userId, manager);
  }

  /** Inside the account deletion's transaction: the rides no driver ever took go with their passenger (bids and events by cascade). */
  deleteUnsharedRidesOf(passengerId: number, manager: EntityManager): Promise<void> {
    return this.writes.deleteUnsharedRidesOf(passengerId, manager);
  }
}
