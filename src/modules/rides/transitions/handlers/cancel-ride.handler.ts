import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../../config/app-config';
import type { CancelledBy } from '../../read-models/ride-view';
import { RideError } from '../../rides.errors';
import type { ChangeContext, CommandOf, CommandOutcome, PendingEvent, RideCommandHandler, RideStepHandler, StepDone } from '../ride-command';
import type { RideColumns } from '../ride-writes.repository';
import type { StepColumns } from '../ride-steps.repository';
import { CancellationFee } from './cancellation-fee';

/** ride.cancelled for the ride as it now is, saying who cancelled. */
async function cancelled<K extends 'cancel' | 'no_show'>(
  ctx: ChangeContext<K>,
  by: CancelledBy,
  set: RideColumns,
  reason: string | null,
): Promise<CommandOutcome<K>> {
  await ctx.changeStatus({ ...set, cancelled_by: by, cancel_reason: reason }, reason);
  const ride = await ctx.view();
  const { id, passenger_id, driver_id } = ctx.ride;
  const payload = { ride_id: id, passenger_id, driver_id, bidder_driver_ids: ctx.withdrawnBidders, cancelled_by: by, ride };
  return { result: ride, event: { name: 'ride.cancelled', payload } } as CommandOutcome<K>;
}

/**
 * `cancel`: who cancelled (the table lets the passenger, the assigned driver and operators) and why.
 * The passenger's cancel more than CANCELLATION_FREE_SECONDS after acceptance pays the fee; the
 * driver's or an operator's costs the passenger nothing (a card's hold is released). A cash ride has
 * no money to settle, so it is a step (one statement); a wallet or card ride takes `run`.
 */
@Injectable()
export class CancelRideHandler implements RideCommandHandler<'cancel'>, RideStepHandler<'cancel'> {
  readonly onlyWhere = "l.payment_method = 'cash'";

  constructor(private readonly fee: CancellationFee) {}

  columns(command: CommandOf<'cancel'>): StepColumns {
    return { cancelled_by: 'party', cancel_reason: command.reason };
  }

  reason(command: CommandOf<'cancel'>): string | null {
    return command.reason;
  }

  event({ party, ride, view, withdrawnBidders }: StepDone<'cancel'>): PendingEvent<'ride.cancelled'> {
    const by: CancelledBy = party === 'driver' || party === 'operator' ? party : 'passenger';
    const { id, passenger_id, driver_id } = ride;
    return { name: 'ride.cancelled', payload: { ride_id: id, passenger_id, driver_id, bidder_driver_ids: withdrawnBidders, cancelled_by: by, ride: view } };
  }

  async run(ctx: ChangeContext<'cancel'>): Promise<CommandOutcome<'cancel'>> {
    const by: CancelledBy = ctx.party === 'driver' || ctx.party === 'operator' ? ctx.party : 'passenger';
    const set = await this.fee.settle(ctx.ride, by === 'passenger' && this.fee.isLate(ctx.ride), ctx.tx);
    return cancelled(ctx, by, set, ctx.command.reason);
  }
}

/**
 * `no_show`: the assigned driver waited NO_SHOW_WAIT_SECONDS after arriving (earlier: 409 "Wait for
 * the passenger a little longer"); the ride is cancelled by the driver with reason `no_show`, and
 * the passenger pays the cancellation fee.
 */
@Injectable()
export class NoShowHandler implements RideCommandHandler<'no_show'> {
  constructor(
    private readonly fee: CancellationFee,
    private readonly config: AppConfig,
  ) {}

  async run(ctx: ChangeContext<'no_show'>): Promise<CommandOutcome<'no_show'>> {
    const waited = ctx.ride.arrived_seconds ?? 0;
    if (waited < this.config.noShowWaitSeconds) throw new RideError('NO_SHOW_TOO_EARLY');
    const set = await this.fee.settle(ctx.ride, true, ctx.tx);
    return cancelled(ctx, 'driver', set, 'no_show');
  }
}
