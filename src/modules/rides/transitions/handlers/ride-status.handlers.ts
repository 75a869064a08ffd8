import { Injectable } from '@nestjs/common';
import { percentOf } from '../../../../common/money';
import { AppConfig } from '../../../../config/app-config';
import { WalletsService } from '../../../wallets/wallets.service';
import type { CancelledBy } from '../../read-models/ride-view';
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

/** `complete`: the ride is paid in the same transaction. */
@Injectable()
export class CompleteRideHandler implements RideCommandHandler<'complete'> {
  constructor(
    private readonly writes: RideWritesRepository,
    private readonly wallets: WalletsService,
    private readonly config: AppConfig,
  ) {}

  async run(ctx: ChangeContext<'complete'>): Promise<CommandOutcome<'complete'>> {
    await ctx.changeStatus();
    await this.pay(ctx);
    return statusChanged(ctx);
  }

  /** Exactly once per ride: the ride row is locked and ride_payments' primary key refuses a second row. */
  private async pay({ ride, tx }: ChangeContext<'complete'>): Promise<void> {
    const fareMinor = ride.fare_minor ?? 0;
    const commissionMinor = percentOf(fareMinor, this.config.platformCommissionPercent);
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

/** `cancel`: who cancelled (the table lets the passenger, the assigned driver and operators) and why. */
export const CANCEL_HANDLER: RideCommandHandler<'cancel'> = {
  async run(ctx) {
    const by: CancelledBy = ctx.party === 'driver' || ctx.party === 'operator' ? ctx.party : 'passenger';
    const reason = ctx.command.reason;
    await ctx.changeStatus({ cancelled_by: by, cancel_reason: reason }, reason);
    const ride = await ctx.view();
    const { id, passenger_id, driver_id } = ctx.ride;
    const payload = { ride_id: id, passenger_id, driver_id, bidder_driver_ids: ctx.withdrawnBidders, cancelled_by: by, ride };
    return { result: ride, event: { name: 'ride.cancelled', payload } };
  },
};

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
