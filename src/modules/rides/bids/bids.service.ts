import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { CommonError } from '../../../common/errors/common.errors';
import { EventBus } from '../../../common/events/event-bus';
import { toMinor } from '../../../common/money';
import { RateLimiter } from '../../../common/rate-limit/rate-limiter';
import { AppConfig } from '../../../config/app-config';
import { DriverError } from '../../drivers/drivers.errors';
import { BiddingDriversPort } from '../ports/bidding-drivers.port';
import { RidesRepository } from '../repositories/rides.repository';
import { RideWritesRepository } from '../repositories/ride-writes.repository';
import { RideTransitionsService } from '../ride-transitions.service';
import { isUuid } from '../rides.service';
import { RideError } from '../rides.errors';
import { bidToJson } from '../views/bid-view';
import { BidsRepository } from './bids.repository';
import { BidError } from './bids.errors';
import type { RideView } from '../views/ride-view';
import type { BidView } from '../views/bid-view';

/** Drivers bid on requested rides; the passenger accepts one bid (the `accept` transition), exactly once. */
@Injectable()
export class BidsService {
  constructor(
    private readonly bids: BidsRepository,
    private readonly writes: RideWritesRepository,
    private readonly rides: RidesRepository,
    private readonly transitions: RideTransitionsService,
    private readonly drivers: BiddingDriversPort,
    private readonly events: EventBus,
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
  ) {}

  /**
   * Places or replaces the driver's bid on a requested ride (approved, online, free, category
   * served). A bid changes no ride: the ride is only held in `requested` (a shared lock: many
   * drivers bid at once, but not while the ride is being accepted or cancelled).
   */
  async submit(driverId: number, rideId: string, amount: number, etaMinutes: number): Promise<BidView> {
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    const amountMinor = toMinor(amount);
    if (amountMinor === undefined || amountMinor <= 0) throw CommonError.validation('amount', 'amount must be positive with at most 2 decimals');
    // Bid storms are bounded per driver (OWASP API6).
    await this.limiter.enforce(`bid:${driverId}`, this.config.bidRateLimitPerMinute, 60);
    const driver = await this.drivers.getDriver(driverId);
    if (driver.status !== 'approved') throw new DriverError('DRIVER_NOT_APPROVED');
    if (!driver.is_online) throw new BidError('DRIVER_CANNOT_BID');

    const { bid, passengerId } = await this.writes.runInTransaction(async (manager) => {
      const ride = await this.writes.lockForShare(rideId, manager);
      if (!ride) throw new RideError('RIDE_NOT_FOUND');
      if (ride.status !== 'requested' || ride.is_past_expiry) throw new RideError('RIDE_NOT_REQUESTED');
      if (driver.vehicle_category_id !== null && driver.vehicle_category_id !== ride.vehicle_category_id) {
        throw new BidError('DRIVER_CANNOT_BID', 'Your vehicle category does not serve this ride');
      }
      if ((await this.rides.findAssignedRefOfDriver(driverId, manager)) !== undefined) throw new BidError('DRIVER_BUSY');
      const row = await this.bids.upsertPending(rideId, driverId, amountMinor, etaMinutes, manager);
      if (!row) throw new BidError('BID_NOT_PENDING');
      return { bid: bidToJson((await this.bids.findView(row.id, manager))!), passengerId: ride.passenger_id };
    });
    if (passengerId !== null) {
      this.events.publish('bid.submitted', { ride_id: rideId, passenger_id: passengerId, driver_id: driverId, bid });
    }
    return bid;
  }

  accept(user: AuthenticatedUser, rideId: string, bidId: string): Promise<RideView> {
    return this.transitions.apply(rideId, { type: 'accept', bidId }, user);
  }

  /** The ride's bids, cheapest first, for its passenger only (drivers never see competing offers). */
  async listForPassenger(user: AuthenticatedUser, rideId: string): Promise<BidView[]> {
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    const ride = await this.rides.findView(rideId);
    if (!ride || ride.passenger_id !== user.id) throw new RideError('RIDE_NOT_FOUND');
    return (await this.bids.listForRide(rideId, false)).map(bidToJson);
  }
}
