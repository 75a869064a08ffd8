import { Injectable } from '@nestjs/common';
import { toMajor } from '../../../common/money';
import { PaymentsService } from '../../payments/payments.service';
import { WalletsService } from '../../wallets/wallets.service';
import { RideError } from '../rides.errors';
import { RidesRepository } from '../read-models/rides.repository';
import type { ChangeContext, CommandOf, CommandOutcome, RideActor, RideCommandHandler } from '../transitions/ride-command';
import { RideWritesRepository } from '../transitions/ride-writes.repository';
import type { TipView } from './tip-view';

/** CONTRACT §11: a tip is accepted for this long after completion. */
export const TIP_WINDOW_HOURS = 24;

/**
 * `tip`: once per completed ride, within TIP_WINDOW_HOURS, paid wallet to wallet in the command's
 * transaction. Exactly once: the engine holds the ride row's exclusive lock, so a concurrent tip
 * waits and then sees this one (and the ledger's unique (ride_id, kind) would refuse a second).
 * A card ride's tip is charged to its card before the lock (prepare: its own PaymentIntent, which
 * payments records against the ride, a write the ride's exclusive lock would block); payments lets
 * one tip of a ride be charged, so a concurrent second is 409 there.
 */
@Injectable()
export class TipRideHandler implements RideCommandHandler<'tip'> {
  constructor(
    private readonly writes: RideWritesRepository,
    private readonly wallets: WalletsService,
    private readonly payments: PaymentsService,
    private readonly rides: RidesRepository,
  ) {}

  /** A card ride's tip, charged first (402 on a decline, nothing recorded); run judges the rest under the lock. */
  async prepare(rideId: string, command: CommandOf<'tip'>, actor: RideActor): Promise<CommandOf<'tip'>> {
    if (actor === 'system') return command;
    const ride = await this.rides.findView(rideId);
    if (!ride || ride.payment_method !== 'card' || ride.passenger_id !== actor.id || ride.status !== 'completed' || ride.driver_id === null) return command;
    const state = await this.writes.tipState(rideId, TIP_WINDOW_HOURS);
    if (state.tipped || !state.in_window) return command;
    await this.payments.chargeTip({ rideId, passengerId: actor.id, driverId: ride.driver_id, amountMinor: command.amountMinor });
    return { ...command, charged: true };
  }

  async run(ctx: ChangeContext<'tip'>): Promise<CommandOutcome<'tip'>> {
    const { ride: locked, command, tx } = ctx;
    const state = await this.writes.tipState(locked.id, TIP_WINDOW_HOURS, tx);
    if (state.tipped) throw new RideError('TIP_ALREADY_PAID');
    if (!state.in_window) throw new RideError('TIP_WINDOW_CLOSED');
    // A driver whose account was deleted left the ride (driver_id SET NULL): nobody to pay.
    if (locked.driver_id === null || locked.passenger_id === null)
      throw new RideError('RIDE_NOT_COMPLETED', 'The driver of this ride can no longer receive tips');
    const driverId = locked.driver_id;
    const passengerId = locked.passenger_id;
    // The card was charged by prepare; a card ride prepare did not charge (its read was stale) is refused.
    if (locked.payment_method !== 'card') await this.wallets.payTip(tx, { rideId: locked.id, passengerId, driverId, amountMinor: command.amountMinor });
    else if (!command.charged) throw new RideError('TIP_ALREADY_PAID');
    const paidAt = await this.writes.recordTip(locked.id, command.amountMinor, tx);
    const tip: TipView = {
      ride_id: locked.id,
      amount: toMajor(command.amountMinor),
      currency: locked.currency.trim(),
      created_at: paidAt.toISOString(),
    };
    const ride = await ctx.view();
    return { result: tip, event: { name: 'ride.tipped', payload: { ride_id: locked.id, passenger_id: passengerId, driver_id: driverId, tip, ride } } };
  }
}
