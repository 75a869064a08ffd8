import { Injectable } from '@nestjs/common';
import { RidesRepository } from '../read-models/rides.repository';
import type { ChangeContext, CommandOf, CommandOutcome, RideActHandler, RideActor, RideCommandHandler } from '../transitions/ride-command';
import type { LockedRide } from '../transitions/ride-writes.repository';
import { bidToJson, BidView, BidViewRow } from './bid-view';
import { BidsRepository, upsertPendingWhere } from './bids.repository';
import { BidError } from './bids.errors';

/**
 * `bid`: places or replaces the driver's bid. It changes no ride: the table holds the ride open
 * under a shared lock (many drivers bid at once, but not while it is being accepted or cancelled).
 * One statement (act: the lock, the table's rule, the category, the driver's own live ride, the
 * upsert and the bid's view), refused in the order `run` refuses; `run` serves a bid with hooks.
 */
@Injectable()
export class SubmitBidHandler implements RideCommandHandler<'bid'>, RideActHandler<'bid'> {
  constructor(
    private readonly bids: BidsRepository,
    private readonly rides: RidesRepository,
  ) {}

  act(command: CommandOf<'bid'>, actor: { id: number }, allowed: string, param: (value: unknown) => string): string {
    const { amountMinor, etaMinutes, driverCategoryId: categoryId } = command;
    return upsertPendingWhere({ driverId: actor.id, amountMinor, etaMinutes, categoryId })(allowed, param);
  }

  settle(
    { command, actor, ride }: { command: CommandOf<'bid'>; actor: RideActor; ride: LockedRide },
    acted: Record<string, unknown> | undefined,
  ): CommandOutcome<'bid'> {
    if (actor === 'system') throw new Error('the platform does not bid');
    this.checkCategory(command, ride);
    if (acted?.driver_busy) throw new BidError('DRIVER_BUSY');
    if (!acted || acted.id === null) throw new BidError('BID_NOT_PENDING');
    return this.outcome(ride, actor.id, bidToJson(acted as unknown as BidViewRow));
  }

  private checkCategory(command: CommandOf<'bid'>, ride: LockedRide): void {
    if (command.driverCategoryId !== null && command.driverCategoryId !== ride.vehicle_category_id) {
      throw new BidError('DRIVER_CANNOT_BID', 'Your vehicle category does not serve this ride');
    }
  }

  private outcome(ride: LockedRide, driverId: number, bid: BidView): CommandOutcome<'bid'> {
    if (ride.passenger_id === null) return { result: bid };
    return { result: bid, event: { name: 'bid.submitted', payload: { ride_id: ride.id, passenger_id: ride.passenger_id, driver_id: driverId, bid } } };
  }

  async run({ command, ride, actor, tx }: ChangeContext<'bid'>): Promise<CommandOutcome<'bid'>> {
    if (actor === 'system') throw new Error('the platform does not bid');
    this.checkCategory(command, ride);
    if ((await this.rides.findAssignedRefOfDriver(actor.id, tx)) !== undefined) throw new BidError('DRIVER_BUSY');
    const row = await this.bids.upsertPending(ride.id, actor.id, command.amountMinor, command.etaMinutes, tx);
    if (!row) throw new BidError('BID_NOT_PENDING');
    return this.outcome(ride, actor.id, bidToJson((await this.bids.findView(row.id, tx))!));
  }
}
