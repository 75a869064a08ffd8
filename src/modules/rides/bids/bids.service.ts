import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { CommonError } from '../../../common/errors/common.errors';
import { toMinor } from '../../../common/money';
import { RateLimiter } from '../../../common/rate-limit/rate-limiter';
import { AppConfig } from '../../../config/app-config';
import { BiddingDriversPort } from '../bidding-drivers.port';
import { RidesRepository } from '../read-models/rides.repository';
import { RideTransitionsService } from '../transitions/ride-transitions.service';
import { isUuid } from '../rides.service';
import { RideError } from '../rides.errors';
import { BidsRepository } from './bids.repository';
import { BidError } from './bids.errors';
import type { RideView } from '../read-models/ride-view';
import { bidToJson, BidView } from './bid-view';

/** Drivers bid on requested rides; the passenger accepts one bid (the `accept` transition), exactly once. */
@Injectable()
export class BidsService {
  constructor(
    private readonly bids: BidsRepository,
    private readonly rides: RidesRepository,
    private readonly transitions: RideTransitionsService,
    private readonly drivers: BiddingDriversPort,
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
  ) {}

  /**
   * Places or replaces the driver's bid on a requested ride (approved, online, free, category
   * served): the driver's own checks here, then the `bid` command (SubmitBidHandler).
   */
  async submit(driverId: number, rideId: string, amount: number, etaMinutes: number): Promise<BidView> {
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    const amountMinor = toMinor(amount);
    if (amountMinor === undefined || amountMinor <= 0) throw CommonError.validation('amount', 'amount must be positive with at most 2 decimals');
    // Bid storms are bounded per driver (OWASP API6).
    await this.limiter.enforce(`bid:${driverId}`, this.config.bidRateLimitPerMinute, 60);
    const driver = await this.drivers.getApprovedDriver(driverId);
    if (!driver.is_online) throw new BidError('DRIVER_CANNOT_BID');

    return this.transitions.apply(rideId, { type: 'bid', amountMinor, etaMinutes, driverCategoryId: driver.vehicle_category_id }, { id: driverId });
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
