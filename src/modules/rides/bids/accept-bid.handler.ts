import { Injectable } from '@nestjs/common';
import { WalletsService } from '../../wallets/wallets.service';
import { WalletError } from '../../wallets/wallets.errors';
import { AppConfig } from '../../../config/app-config';
import { BiddingDriversPort } from '../bidding-drivers.port';
import { RidePinSettingsPort } from '../ride-pin-settings.port';
import { needsPin, newStartPin } from '../transitions/start-pin';
import { RidesRepository } from '../read-models/rides.repository';
import { isUuid } from '../rides.service';
import type { ChangeContext, CommandOf, CommandOutcome, RideCommandHandler } from '../transitions/ride-command';
import { BidRow, BidsRepository } from './bids.repository';
import { BidError } from './bids.errors';

/**
 * `accept`, exactly once: with the ride locked, the bid rows the acceptance settles are locked (in
 * id order, as BidsRepository explains); the bid must be pending, the driver approved and free (also
 * enforced by rides_driver_live_uq) and, for wallet rides, the balance must cover the amount. The
 * passenger's ride_pin setting at this moment decides whether the ride gets a start PIN (§14).
 */
@Injectable()
export class AcceptBidHandler implements RideCommandHandler<'accept', BidRow> {
  constructor(
    private readonly bids: BidsRepository,
    private readonly rides: RidesRepository,
    private readonly drivers: BiddingDriversPort,
    private readonly wallets: WalletsService,
    private readonly pinSettings: RidePinSettingsPort,
    private readonly config: AppConfig,
  ) {}

  validate(command: CommandOf<'accept'>): void {
    if (!isUuid(command.bidId)) throw new BidError('BID_NOT_FOUND');
  }

  /** A bid of another ride is not found, whatever this ride's status. */
  async locate({ command, ride, tx }: ChangeContext<'accept'>): Promise<BidRow> {
    const seen = await this.bids.findOnRide(command.bidId, ride.id, tx);
    if (!seen) throw new BidError('BID_NOT_FOUND');
    return seen;
  }

  async run(ctx: ChangeContext<'accept'>, seen: BidRow): Promise<CommandOutcome<'accept'>> {
    const { ride, tx } = ctx;
    const passengerId = ride.passenger_id!;
    // Lock order: the ride, then the bid rows (in id order). The driver's row is read, not locked:
    // heartbeat flushes update it, and the partial unique index rides_driver_live_uq is what
    // guarantees that a driver never holds two live rides.
    const locked = await this.bids.lockPendingForAcceptance(ride.id, seen.driver_id, tx);
    const bid = locked.find((b) => b.id === seen.id);
    if (!bid) throw new BidError('BID_NOT_PENDING');
    const driver = await this.drivers.findDriver(bid.driver_id, tx);
    if (!driver || driver.status !== 'approved') throw new BidError('DRIVER_BUSY', 'Driver is no longer available');
    if ((await this.rides.findAssignedRefOfDriver(bid.driver_id, tx)) !== undefined) throw new BidError('DRIVER_BUSY');
    if (ride.payment_method === 'wallet' && !(await this.wallets.covers(passengerId, bid.amount_minor, tx))) {
      throw new WalletError('INSUFFICIENT_FUNDS');
    }
    const pin = needsPin(await this.pinSettings.ridePinSettingOf(passengerId, tx), this.config.ridePinTimezone, new Date()) ? newStartPin() : undefined;
    const set = { driver_id: bid.driver_id, accepted_bid_id: bid.id, fare_minor: bid.amount_minor, ...(pin ? { start_pin: pin } : {}) };
    if (!(await ctx.changeStatus(set))) {
      throw new BidError('DRIVER_BUSY');
    }
    const rejected = await this.bids.settleAcceptance(ride.id, bid, locked, tx);
    const view = await ctx.view();
    const payload = { ride_id: ride.id, passenger_id: passengerId, driver_id: bid.driver_id, rejected_driver_ids: rejected, ride: view };
    return { result: view, event: { name: 'ride.accepted', payload } };
  }
}
