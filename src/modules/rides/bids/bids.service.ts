import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { CommonError } from '../../../common/errors/common.errors';
import type { JsonObject } from '../../../common/events/domain-events';
import { EventBus } from '../../../common/events/event-bus';
import { toMinor } from '../../../common/money';
import { RateLimiter } from '../../../common/rate-limit/rate-limiter';
import { AppConfig } from '../../../config/app-config';
import { DriversService } from '../../drivers/drivers.service';
import { DriverError } from '../../drivers/drivers.errors';
import { isUuid, RidesService } from '../rides.service';
import { RideError } from '../rides.errors';
import { WalletsService } from '../../wallets/wallets.service';
import { WalletError } from '../../wallets/wallets.errors';
import { BidsRepository } from './bids.repository';
import { BidError } from './bids.errors';

/** Drivers bid on requested rides; the passenger accepts one bid, exactly once. */
@Injectable()
export class BidsService {
  constructor(
    private readonly bids: BidsRepository,
    private readonly rides: RidesService,
    private readonly drivers: DriversService,
    private readonly wallets: WalletsService,
    private readonly events: EventBus,
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
  ) {}

  /** Places or replaces the driver's bid on a requested ride (approved, online, free, category served). */
  async submit(driverId: number, rideId: string, amount: number, etaMinutes: number): Promise<JsonObject> {
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    const amountMinor = toMinor(amount);
    if (amountMinor === undefined || amountMinor <= 0) throw CommonError.validation('amount', 'amount must be positive with at most 2 decimals');
    // Bid storms are bounded per driver (OWASP API6).
    await this.limiter.enforce(`bid:${driverId}`, this.config.bidRateLimitPerMinute, 60);
    const driver = await this.drivers.getDriver(driverId);
    if (driver.status !== 'approved') throw new DriverError('DRIVER_NOT_APPROVED');
    if (!driver.is_online) throw new BidError('DRIVER_CANNOT_BID');

    const { bid, passengerId } = await this.rides.runInTransaction(async (manager) => {
      // A shared lock: many drivers bid at once, but not while the ride is being accepted or cancelled.
      const ride = await this.rides.lockRideForShare(rideId, manager);
      if (!ride) throw new RideError('RIDE_NOT_FOUND');
      if (ride.status !== 'requested' || ride.is_past_expiry) throw new RideError('RIDE_NOT_REQUESTED');
      if (driver.vehicle_category_id !== null && driver.vehicle_category_id !== ride.vehicle_category_id) {
        throw new BidError('DRIVER_CANNOT_BID', 'Your vehicle category does not serve this ride');
      }
      if (await this.rides.driverHasAssignedRide(driverId, manager)) throw new BidError('DRIVER_BUSY');
      const row = await this.bids.upsertPending(rideId, driverId, amountMinor, etaMinutes, manager);
      if (!row) throw new BidError('BID_NOT_PENDING');
      return { bid: (await this.rides.bidJson(row.id, manager))!, passengerId: ride.passenger_id };
    });
    if (passengerId !== null) {
      this.events.publish('bid.submitted', { ride_id: rideId, passenger_id: passengerId, driver_id: driverId, bid });
    }
    return bid;
  }

  /**
   * Exactly-once acceptance: the ride row is locked, then the bid rows the acceptance settles; the
   * ride must still be requested, the bid pending, the driver approved and free (also enforced by
   * rides_driver_live_uq) and, for wallet rides, the balance must cover the amount. Events go out
   * after commit.
   */
  async accept(user: AuthenticatedUser, rideId: string, bidId: string): Promise<JsonObject> {
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    if (!isUuid(bidId)) throw new BidError('BID_NOT_FOUND');
    const result = await this.rides.runInTransaction(async (manager) => {
      const ride = await this.rides.lockRideForUpdate(rideId, manager);
      if (!ride || ride.passenger_id !== user.id) throw new RideError('RIDE_NOT_FOUND');
      const seen = await this.bids.findOnRide(bidId, rideId, manager);
      if (!seen) throw new BidError('BID_NOT_FOUND');
      if (ride.status !== 'requested' || ride.is_past_expiry) throw new RideError('RIDE_NOT_REQUESTED');
      // Lock order: the ride, then the bid rows (in id order). The driver's row is read, not locked:
      // heartbeat flushes update it, and the partial unique index rides_driver_live_uq is what
      // guarantees that a driver never holds two live rides.
      const locked = await this.bids.lockPendingForAcceptance(rideId, seen.driver_id, manager);
      const bid = locked.find((b) => b.id === bidId);
      if (!bid) throw new BidError('BID_NOT_PENDING');
      const driver = await this.drivers.findDriver(bid.driver_id, manager);
      if (!driver || driver.status !== 'approved') throw new BidError('DRIVER_BUSY', 'Driver is no longer available');
      if (await this.rides.driverHasAssignedRide(bid.driver_id, manager)) throw new BidError('DRIVER_BUSY');
      if (ride.payment_method === 'wallet' && !(await this.wallets.covers(user.id, bid.amount_minor, manager))) {
        throw new WalletError('INSUFFICIENT_FUNDS');
      }
      if (!(await this.rides.assignDriver(rideId, bid.driver_id, bid.id, bid.amount_minor, manager))) {
        throw new BidError('DRIVER_BUSY');
      }
      const rejected = await this.bids.settleAcceptance(rideId, bid, locked, manager);
      await this.rides.recordRideEvents(
        [{ rideId, from: 'requested', to: 'accepted', actorUserId: user.id, actorRole: 'passenger' }],
        manager,
      );
      return { ride: await this.rides.rideJson(rideId, manager), driverId: bid.driver_id, rejected };
    });
    this.events.publish('ride.accepted', {
      ride_id: rideId,
      passenger_id: user.id,
      driver_id: result.driverId,
      rejected_driver_ids: result.rejected,
      ride: result.ride,
    });
    return result.ride;
  }

  listForPassenger(user: AuthenticatedUser, rideId: string): Promise<JsonObject[]> {
    return this.rides.listBidsForPassenger(rideId, user);
  }
}
