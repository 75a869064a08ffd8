import { Injectable } from '@nestjs/common';
import { toMajor } from '../../../common/money';
import { PaymentsService } from '../../payments/payments.service';
import { TipTransferRow, WalletsService } from '../../wallets/wallets.service';
import { rideToJson, RideViewRow } from '../read-models/ride-view';
import { RideError } from '../rides.errors';
import type { CommandOf, CommandOutcome, RideActHandler, RideActor } from '../transitions/ride-command';
import type { LockedRide } from '../transitions/ride-writes.repository';
import { RideTipsRepository, TipActed } from './ride-tips.repository';
import type { TipView } from './tip-view';

/** CONTRACT §11: a tip is accepted for this long after completion. */
export const TIP_WINDOW_HOURS = 24;

/**
 * `tip`: once per completed ride, within TIP_WINDOW_HOURS, as one statement (act: the ride locked,
 * the rules judged, the wallet to wallet transfer of the wallets module, the tip on the ride and
 * its view), refused from what the statement found. Exactly once: the statement holds the ride
 * row's exclusive lock, so a concurrent tip waits and then finds this one (and the ledger's unique
 * (ride_id, kind) would refuse a second). A card ride's tip is charged to its card before the lock
 * (prepare: its own PaymentIntent, which payments records against the ride in a transaction of its
 * own, a write the ride's lock would block); payments lets one tip of a ride be charged, so a
 * concurrent second is 409 there.
 */
@Injectable()
export class TipRideHandler implements RideActHandler<'tip'> {
  constructor(
    private readonly tips: RideTipsRepository,
    private readonly wallets: WalletsService,
    private readonly payments: PaymentsService,
  ) {}

  /** A card ride's tip, charged first (402 on a decline, nothing recorded); the statement judges the rest under the lock. */
  async prepare(rideId: string, command: CommandOf<'tip'>, actor: RideActor): Promise<CommandOf<'tip'>> {
    if (actor === 'system') return command;
    const ride = await this.tips.chargeState(rideId, TIP_WINDOW_HOURS);
    if (!ride || ride.payment_method !== 'card' || ride.passenger_id !== actor.id || ride.status !== 'completed' || ride.driver_id === null) return command;
    if (ride.tipped || !ride.in_window) return command;
    await this.payments.chargeTip({ rideId, passengerId: actor.id, driverId: ride.driver_id, amountMinor: command.amountMinor });
    return { ...command, charged: true };
  }

  act(command: CommandOf<'tip'>, _actor: { id: number }, allowed: string, param: (value: unknown) => string): string {
    const tip = { amountMinor: command.amountMinor, windowHours: TIP_WINDOW_HOURS, charged: command.charged === true };
    return this.tips.tipWhere(tip, (part) => this.wallets.tipTransferSql(part, param), allowed, param);
  }

  settle({ command, ride }: { command: CommandOf<'tip'>; ride: LockedRide }, acted: Record<string, unknown> | undefined): CommandOutcome<'tip'> {
    const found = acted as (TipActed & TipTransferRow & Partial<RideViewRow> & { tipped_at?: Date }) | undefined;
    if (!found) throw new Error('the tip statement answered no row');
    if (found.already_tipped) throw new RideError('TIP_ALREADY_PAID');
    if (!found.in_window) throw new RideError('TIP_WINDOW_CLOSED');
    // A driver whose account was deleted left the ride (driver_id SET NULL): nobody to pay.
    if (ride.driver_id === null || ride.passenger_id === null) throw new RideError('RIDE_NOT_COMPLETED', 'The driver of this ride can no longer receive tips');
    // A card ride prepare did not charge (its read was stale: a concurrent tip got there first) is refused.
    if (ride.payment_method === 'card' && !command.charged) throw new RideError('TIP_ALREADY_PAID');
    if (ride.payment_method !== 'card') {
      const refusal = this.wallets.tipTransferRefusal(found);
      if (refusal) throw refusal;
    }
    if (!found.tipped_at) throw new Error('the tip statement refused what it allows');
    const tip: TipView = { ride_id: ride.id, amount: toMajor(command.amountMinor), currency: ride.currency.trim(), created_at: found.tipped_at.toISOString() };
    const view = rideToJson(found as RideViewRow);
    const payload = { ride_id: ride.id, passenger_id: ride.passenger_id, driver_id: ride.driver_id, tip, ride: view };
    return { result: tip, event: { name: 'ride.tipped', payload } };
  }
}
