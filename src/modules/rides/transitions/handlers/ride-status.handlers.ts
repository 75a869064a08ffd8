import { Injectable } from '@nestjs/common';
import { percentOf } from '../../../../common/money';
import { AppConfig } from '../../../../config/app-config';
import { PaymentError } from '../../../payments/payments.errors';
import { PaymentsService } from '../../../payments/payments.service';
import { WalletsService } from '../../../wallets/wallets.service';
import { RideError } from '../../rides.errors';
import { MAX_WRONG_PINS, pinMatches } from '../start-pin';
import type { ChangeContext, CommandOutcome, RideCommandHandler, RideSweepHandler } from '../ride-command';
import { RideWritesRepository } from '../ride-writes.repository';

type StatusStep = 'arrive' | 'start' | 'complete';

/** ride.status_changed for the ride as it now is. */
async function statusChanged<K extends StatusStep>(ctx: ChangeContext<K>): Promise<CommandOutcome<K>> {
  const ride = await ctx.view();
  const payload = { ride_id: ride.id, passenger_id: ride.passenger?.id ?? null, driver_id: ctx.ride.driver_id, status: ride.status, ride };
  return { result: ride, event: { name: 'ride.status_changed', payload } } as CommandOutcome<K>;
}

/** `arrive`: the status change and nothing else. */
export const ARRIVE_HANDLER: RideCommandHandler<'arrive'> = {
  async run(ctx) {
    await ctx.changeStatus();
    return statusChanged(ctx);
  },
};

/**
 * `start`: a ride with a start PIN (CONTRACT §14) starts only with it, compared in constant time.
 * A wrong or missing PIN is counted (the count commits with the refusal); once MAX_WRONG_PINS have
 * been counted, the ride's PIN is refused outright, right or not.
 */
@Injectable()
export class StartRideHandler implements RideCommandHandler<'start'> {
  constructor(private readonly writes: RideWritesRepository) {}

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
 */
@Injectable()
export class CompleteRideHandler implements RideCommandHandler<'complete'> {
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
