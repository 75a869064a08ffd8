import { Injectable, Logger } from '@nestjs/common';
import { PaymentError } from '../../payments/payments.errors';
import { PaymentsService } from '../../payments/payments.service';
import { WalletsService } from '../../wallets/wallets.service';
import { WalletError } from '../../wallets/wallets.errors';
import { AppConfig } from '../../../config/app-config';
import { BiddingDriversPort } from '../bidding-drivers.port';
import { RidePinSettingsPort } from '../ride-pin-settings.port';
import { RIDE_PIN_SETTINGS } from '../ride-pin-settings.port';
import { needsPin, newStartPin } from '../transitions/start-pin';
import { RidesRepository } from '../read-models/rides.repository';
import { isUuid } from '../rides.service';
import type {
  ChangeContext,
  CommandOf,
  CommandOutcome,
  PendingEvent,
  RideActor,
  RideCommandHandler,
  RideStepHandler,
  StepDone,
} from '../transitions/ride-command';
import type { StepColumns } from '../transitions/ride-steps.repository';
import { acceptanceSource, BidRow, BidsRepository, settleAcceptanceOfChanged } from './bids.repository';
import { BidError } from './bids.errors';

/**
 * `accept`, exactly once: with the ride locked, the bid rows the acceptance settles are locked (in
 * id order, as BidsRepository explains); the bid must be pending, the driver approved and free (also
 * enforced by rides_driver_live_uq) and, for wallet rides, the balance must cover the amount. The
 * passenger's ride_pin setting at this moment decides whether the ride gets a start PIN (§14).
 *
 * A card ride's fare is held before the ride is locked (prepare), never under the lock: the Stripe
 * call may take seconds, and every other command on the ride would wait for it. The hold's own
 * transaction (the passenger's customer row) lets one hold of the ride be live at a time, so of
 * concurrent accepts one holds and the rest get 409; an accept that then loses under the lock
 * cancels its hold (undo). See docs/decisions.md, "The card hold sits outside the ride's lock".
 *
 * At steady state (the bid pending, its driver approved and free, the ride paid for) the accept is
 * one statement (the step form: `source` reads and locks the bids, `also` settles them); on any other
 * ride, or one somebody else holds (`nowait`), the statement writes nothing and `run` judges the
 * command step by step and refuses with the precise error.
 */
@Injectable()
export class AcceptBidHandler implements RideCommandHandler<'accept', BidRow>, RideStepHandler<'accept'> {
  private readonly logger = new Logger('AcceptBid');
  readonly onlyWhere = 'coalesce((SELECT ready FROM src), false)';
  readonly nowait = true;

  constructor(
    private readonly bids: BidsRepository,
    private readonly rides: RidesRepository,
    private readonly drivers: BiddingDriversPort,
    private readonly wallets: WalletsService,
    private readonly pinSettings: RidePinSettingsPort,
    private readonly config: AppConfig,
    private readonly payments: PaymentsService,
  ) {}

  validate(command: CommandOf<'accept'>): void {
    if (!isUuid(command.bidId)) throw new BidError('BID_NOT_FOUND');
  }

  /**
   * A card ride whose passenger accepts a pending bid: the hold, first. What this reads unlocked only
   * decides whether to try; run judges everything again under the lock. 402 on a decline, with
   * nothing about the ride changed.
   */
  async prepare(rideId: string, command: CommandOf<'accept'>, actor: RideActor): Promise<CommandOf<'accept'>> {
    if (actor === 'system') return command;
    const seen = await this.bids.findAcceptance(rideId, command.bidId);
    if (!seen || seen.payment_method !== 'card' || seen.passenger_id !== actor.id || seen.status !== 'requested') return command;
    if (seen.bid_status !== 'pending' || seen.amount_minor === null) return command;
    const hold = await this.payments.holdFare({ rideId, passengerId: actor.id, fareMinor: seen.amount_minor });
    return { ...command, hold: { amountMinor: hold.amountMinor } };
  }

  /** The accept lost after its hold: the hold is cancelled (`ride:{id}:release`), never left behind. */
  async undo(rideId: string): Promise<void> {
    await this.payments.releaseHold(rideId).catch((err: unknown) => {
      // Stripe unreachable now: an uncaptured hold lapses by itself after 7 days (payment_intent.canceled).
      this.logger.error({ msg: 'Could not release the hold of a failed accept', ride_id: rideId, err });
    });
  }

  /** The step's source: the bid, the bids it settles locked, and whether all the run form checks hold (acceptanceSource). */
  source(command: CommandOf<'accept'>, param: (value: unknown) => string): string {
    const now = new Date();
    // needsPin is the one rule: asked of every setting now, the statement picks the passenger's.
    const pinSettings = RIDE_PIN_SETTINGS.filter((setting) => needsPin(setting, this.config.ridePinTimezone, now));
    const accept = { bidId: command.bidId, holdMinor: command.hold?.amountMinor ?? null, pinSettings, pin: newStartPin() };
    const rules = {
      approvedDriver: (driverId: string) => this.drivers.approvedDriverSql(driverId),
      walletCovers: (userId: string, amount: string) => this.wallets.coversSql(userId, amount),
      pinSetting: (userId: string) => this.pinSettings.ridePinSettingSql(userId),
    };
    return acceptanceSource(accept, rules)(param);
  }

  /** As run's change: the ride assigned to the bidder at the bid's amount, its PIN if the setting asks, a card's hold held. */
  columns(command: CommandOf<'accept'>): StepColumns {
    const paid = command.hold ? { payment_status: 'held' as const } : {};
    return { driver_id: { src: 'driver_id' }, accepted_bid_id: { src: 'id' }, fare_minor: { src: 'amount_minor' }, start_pin: { src: 'start_pin' }, ...paid };
  }

  also(): string {
    return settleAcceptanceOfChanged();
  }

  event({ ride, view, also }: StepDone<'accept'>): PendingEvent<'ride.accepted'> {
    // In bid id order, as run names them (the order the bids were locked in).
    const settled = (also as Array<{ id: string; driver_id: number; status: BidRow['status'] }>).slice().sort((a, b) => (a.id < b.id ? -1 : 1));
    const driverId = settled.find((b) => b.status === 'accepted')!.driver_id;
    const rejected = settled.filter((b) => b.status === 'rejected').map((b) => b.driver_id);
    const payload = { ride_id: ride.id, passenger_id: ride.passenger_id!, driver_id: driverId, rejected_driver_ids: rejected, ride: view };
    return { name: 'ride.accepted', payload };
  }

  /** A bid of another ride is not found, whatever this ride's status. */
  async locate({ command, ride, tx }: ChangeContext<'accept'>): Promise<BidRow> {
    const seen = await this.bids.findOnRide(command.bidId, ride.id, tx);
    if (!seen) throw new BidError('BID_NOT_FOUND');
    return seen;
  }

  async run(ctx: ChangeContext<'accept'>, seen: BidRow): Promise<CommandOutcome<'accept'>> {
    const { ride, tx, command } = ctx;
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
    // The hold must cover the fare: a bid raised past it since prepare read it is held again on the next try.
    if (ride.payment_method === 'card' && (!command.hold || command.hold.amountMinor < bid.amount_minor)) throw new PaymentError('NO_HELD_PAYMENT');
    const paid = ride.payment_method === 'card' ? { payment_status: 'held' as const } : {};
    const pin = needsPin(await this.pinSettings.ridePinSettingOf(passengerId, tx), this.config.ridePinTimezone, new Date()) ? newStartPin() : undefined;
    const set = { driver_id: bid.driver_id, accepted_bid_id: bid.id, fare_minor: bid.amount_minor, ...paid, ...(pin ? { start_pin: pin } : {}) };
    if (!(await ctx.changeStatus(set))) {
      throw new BidError('DRIVER_BUSY');
    }
    const rejected = await this.bids.settleAcceptance(ride.id, bid, locked, tx);
    const view = await ctx.view();
    const payload = { ride_id: ride.id, passenger_id: passengerId, driver_id: bid.driver_id, rejected_driver_ids: rejected, ride: view };
    return { result: view, event: { name: 'ride.accepted', payload } };
  }
}
