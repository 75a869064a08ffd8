import { Injectable } from '@nestjs/common';
import { percentOf } from '../../../../common/money';
import { AppConfig } from '../../../../config/app-config';
import { PaymentError } from '../../../payments/payments.errors';
import { PaymentsService } from '../../../payments/payments.service';
import { WalletsService } from '../../../wallets/wallets.service';
import { RideError } from '../../rides.errors';
import { MAX_WRONG_PINS, pinDigest, pinMatches, sqlPinAllows } from '../start-pin';
import type { ChangeContext, CommandOf, CommandOutcome, PendingEvent, RideCommandHandler, RideStepHandler, RideSweepHandler, StepDone } from '../ride-command';
import { paymentOfChanged, RideWritesRepository } from '../ride-writes.repository';

type StatusStep = 'arrive' | 'start' | 'complete';

/** ride.status_changed for the ride as it now is (`ride`: as locked before the change). */
function statusChangedOf({ ride, view }: Pick<StepDone<StatusStep>, 'ride' | 'view'>): PendingEvent<'ride.status_changed'> {
  const payload = { ride_id: view.id, passenger_id: view.passenger?.id ?? null, driver_id: ride.driver_id, status: view.status, ride: view };
  return { name: 'ride.status_changed', payload };
}

/** The answer and ride.status_changed of a `run` handler's change, the view read in its transaction. */
async function statusChanged<K extends StatusStep>(ctx: ChangeContext<K>): Promise<CommandOutcome<K>> {
  const view = await ctx.view();
  return { result: view, event: statusChangedOf({ ride: ctx.ride, view }) } as CommandOutcome<K>;
}

/** `arrive`: the status change and nothing else, as one statement (a step). */
export const ARRIVE_HANDLER: RideStepHandler<'arrive'> = {
  event: (done) => statusChangedOf(done),
};

/**
 * `start`: a ride with a start PIN (CONTRACT §14) starts only with it. A wrong or missing PIN is
 * counted (the count commits with the refusal); once MAX_WRONG_PINS have been counted, the ride's
 * PIN is refused outright, right or not. A ride without a PIN, or the right PIN with tries left, is
 * a step (one statement, the PIN's digest compared in it: sqlPinAllows); anything else takes `run`,
 * which compares in constant time and writes the count in the refusal's commit.
 */
@Injectable()
export class StartRideHandler implements RideCommandHandler<'start'>, RideStepHandler<'start'> {
  constructor(private readonly writes: RideWritesRepository) {}

  onlyWhere(command: CommandOf<'start'>, param: (value: unknown) => string): string {
    return sqlPinAllows(param(command.pin === undefined ? null : pinDigest(command.pin)), param(MAX_WRONG_PINS));
  }

  event(done: StepDone<'start'>): PendingEvent<'ride.status_changed'> {
    return statusChangedOf(done);
  }

  async run(ctx: ChangeContext<'start'>): Promise<CommandOutcome<'start'>> {
    const { ride, tx } = ctx;
    if (ride.start_pin !== null) {
      if (ride.start_pin_failures >= MAX_WRONG_PINS) return { refusal: new RideError('TOO_MANY_WRONG_PINS') };
      if (!pinMatches(ride.start_pin, ctx.command.pin)) {
        await this.writes.countWrongPin(ride.id, tx);
        return { refusal: new RideError('WRONG_PIN') };
      }
    }
    await ctx.changeStatus();
    return statusChanged(ctx);
  }
}

/**
 * `complete`: the ride is paid in the same transaction. A card ride's fare is captured first
 * (bounded Stripe call, under the ride's lock like a cancel's fee): a capture Stripe refuses still
 * completes the ride, with `payment_status: "failed"`; an outage is a 503 with nothing changed.
 * A cash ride not yet paid is a step (its payment row in the same statement, one round trip); a wallet
 * or card ride takes `run`: the transfer or the capture with the status change, under the lock.
 */
@Injectable()
export class CompleteRideHandler implements RideCommandHandler<'complete'>, RideStepHandler<'complete'> {
  // A ride with a payment row already is left to run, which refuses it as paid.
  readonly onlyWhere = "l.payment_method = 'cash' AND NOT EXISTS (SELECT 1 FROM ride_payments p WHERE p.ride_id = l.id)";

  constructor(
    private readonly writes: RideWritesRepository,
    private readonly wallets: WalletsService,
    private readonly payments: PaymentsService,
    private readonly config: AppConfig,
  ) {}

  async run(ctx: ChangeContext<'complete'>): Promise<CommandOutcome<'complete'>> {
    const fareMinor = ctx.ride.fare_minor ?? 0;
    const commissionMinor = percentOf(fareMinor, this.config.platformCommissionPercent);
    const captured = ctx.ride.payment_method === 'card' ? await this.capture(ctx, fareMinor, commissionMinor) : undefined;
    await ctx.changeStatus(captured === undefined ? {} : { payment_status: captured ? 'captured' : 'failed' });
    if (captured !== false) await this.pay(ctx, fareMinor, commissionMinor);
    return statusChanged(ctx);
  }

  also(param: (value: unknown) => string): string {
    return paymentOfChanged(this.config.platformCommissionPercent)(param);
  }

  event(done: StepDone<'complete'>): PendingEvent<'ride.status_changed'> {
    return statusChangedOf(done);
  }

  /** Whether the card ride's fare was captured (the driver's share booked by payments, once). */
  private async capture({ ride }: ChangeContext<'complete'>, fareMinor: number, commissionMinor: number): Promise<boolean> {
    if (ride.driver_id === null || fareMinor <= 0) return false;
    try {
      const outcome = await this.payments.captureFare({ rideId: ride.id, driverId: ride.driver_id, fareMinor, commissionMinor });
      return outcome.status === 'captured';
    } catch (err) {
      // No live hold (Stripe cancelled it, webhook seen): nothing to capture.
      if (err instanceof PaymentError && err.code === 'NO_HELD_PAYMENT') return false;
      throw err;
    }
  }

  /** Exactly once per ride: the ride row is locked and ride_payments' primary key refuses a second row. */
  private async pay({ ride, tx }: ChangeContext<'complete'>, fareMinor: number, commissionMinor: number): Promise<void> {
    const driverId = ride.driver_id!;
    const inserted = await this.writes.insertPayment(
      { rideId: ride.id, driverId, method: ride.payment_method, fareMinor, commissionMinor, currency: ride.currency.trim() },
      tx,
    );
    if (!inserted) throw new RideError('INVALID_STATUS_TRANSITION', 'Ride is already paid');
    if (ride.payment_method === 'wallet' && ride.passenger_id !== null && fareMinor > 0) {
      await this.wallets.payRide(tx, { rideId: ride.id, passengerId: ride.passenger_id, driverId, fareMinor, commissionMinor });
    }
  }
}

/** `no_step` only ever refuses (its row allows no status). */
export const NO_STEP_HANDLER: RideCommandHandler<'no_step'> = {
  run() {
    throw new Error('no_step allows no status, so it never runs');
  },
};

/** `expire`, per ride of the sweep's batch. */
export const EXPIRE_HANDLER: RideSweepHandler<'expire'> = {
  event(ride, view, bidders) {
    return { name: 'ride.expired', payload: { ride_id: ride.id, passenger_id: ride.passenger_id, bidder_driver_ids: bidders, ride: view } };
  },
};
