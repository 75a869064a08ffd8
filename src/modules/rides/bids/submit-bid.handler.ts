import { Injectable } from '@nestjs/common';
import { RidesRepository } from '../read-models/rides.repository';
import type { ChangeContext, CommandOutcome, RideCommandHandler } from '../transitions/ride-command';
import { bidToJson } from './bid-view';
import { BidsRepository } from './bids.repository';
import { BidError } from './bids.errors';

/**
 * `bid`: places or replaces the driver's bid. It changes no ride: the table holds the ride open
 * under a shared lock (many drivers bid at once, but not while it is being accepted or cancelled).
 */
@Injectable()
export class SubmitBidHandler implements RideCommandHandler<'bid'> {
  constructor(
    private readonly bids: BidsRepository,
    private readonly rides: RidesRepository,
  ) {}

  async run({ command, ride, actor, tx }: ChangeContext<'bid'>): Promise<CommandOutcome<'bid'>> {
    if (actor === 'system') throw new Error('the platform does not bid');
    if (command.driverCategoryId !== null && command.driverCategoryId !== ride.vehicle_category_id) {
      throw new BidError('DRIVER_CANNOT_BID', 'Your vehicle category does not serve this ride');
    }
    if ((await this.rides.findAssignedRefOfDriver(actor.id, tx)) !== undefined) throw new BidError('DRIVER_BUSY');
    const row = await this.bids.upsertPending(ride.id, actor.id, command.amountMinor, command.etaMinutes, tx);
    if (!row) throw new BidError('BID_NOT_PENDING');
    const bid = bidToJson((await this.bids.findView(row.id, tx))!);
    if (ride.passenger_id === null) return { result: bid };
    return { result: bid, event: { name: 'bid.submitted', payload: { ride_id: ride.id, passenger_id: ride.passenger_id, driver_id: actor.id, bid } } };
  }
}
