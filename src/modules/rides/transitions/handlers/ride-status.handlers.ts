import { Injectable } from '@nestjs/common';
import { percentOf } from '../../../../common/money';
import { AppConfig } from '../../../../config/app-config';
import { WalletsService } from '../../../wallets/wallets.service';
import type { CancelledBy } from '../../read-models/ride-view';
import { RideError } from '../../rides.errors';
import { MAX_WRONG_PINS, pinMatches } from '../start-pin';
import type { ChangeContext, CommandOutcome, PendingEvent, RideCommandHandler, RideStepHandler, RideSweepHandler, RideTx, StepDone } from '../ride-command';
import { paymentOfChanged, RideWritesRepository } from '../ride-writes.repository';

type StatusStep = 'arrive' | 'start' | 'complete';

/** ride.status_changed for the ride as it now is. */
function statusChanged({ ride, view }: Pick<StepDone<StatusStep>, 'ride' | 'view'>): PendingEvent<'ride.status_changed'> {
  const payload = { ride_id: view.id, passenger_id: view.passenger?.id ?? null, driver_id: ride.driver_id, status: view.status, ride: view };
  return { name: 'ride.status_changed', payload };
}

/** `arrive`: the status change and nothing else (one statement). */
export const ARRIVE_HANDLER: RideStepHandler<'arrive'> = {
  event: (done) => statusChanged(done),
};

/**
 * `start`: a ride with a start PIN (CONTRACT §14) starts only with it, compared in constant time.
 * A wrong or missing PIN is counted (the count commits with the refusal); once MAX_WRONG_PINS have
 * been counted, the ride's PIN is refused outright, right or not. The `run` form, not a step: the
 * comparison is made here, not in SQL, and a refusal writes the count, so start takes the
 * transaction's round trips.
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
    const view = await ctx.view();
    return { result: view, event: statusChanged({ ride, view }) };
  }
}

/**
 * `complete`: the ride is paid in the same transaction, exactly once: the payment row is part of
 * the step's statement (ride_payments' primary key refuses a second), a wallet ride's fare then
 * moves wallet to wallet through the wallets module.
 */
@Injectable()
export class CompleteRideHandler implements RideStepHandler<'complete'> {
  constructor(
    private readonly wallets: WalletsService,
    private readonly config: AppConfig,
  ) {}

  also(param: (value: unknown) => string): string {
    return paymentOfChanged(this.config.platformCommissionPercent)(param);
  }

  async inTransaction(tx: RideTx, { ride, also }: StepDone<'complete'>): Promise<void> {
    if (!also) throw new RideError('INVALID_STATUS_TRANSITION', 'Ride is already paid');
    const fareMinor = ride.fare_minor ?? 0;
    if (ride.payment_method === 'wallet' && ride.passenger_id !== null && fareMinor > 0) {
      const commissionMinor = percentOf(fareMinor, this.config.platformCommissionPercent);
      await this.wallets.payRide(tx, { rideId: ride.id, passengerId: ride.passenger_id, driverId: ride.driver_id!, fareMinor, commissionMinor });
    }
  }

  event(done: StepDone<'complete'>): PendingEvent<'ride.status_changed'> {
    return statusChanged(done);
  }
}

/** `cancel`: who cancelled (the table lets the passenger, the assigned driver and operators) and why (one statement). */
export const CANCEL_HANDLER: RideStepHandler<'cancel'> = {
  columns: (command) => ({ cancelled_by: 'party', cancel_reason: command.reason }),
  reason: (command) => command.reason,
  event({ party, ride, view, withdrawnBidders }) {
    const by: CancelledBy = party === 'driver' || party === 'operator' ? party : 'passenger';
    const { id, passenger_id, driver_id } = ride;
    return { name: 'ride.cancelled', payload: { ride_id: id, passenger_id, driver_id, bidder_driver_ids: withdrawnBidders, cancelled_by: by, ride: view } };
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
