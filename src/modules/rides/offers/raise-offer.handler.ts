import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import type { ChangeContext, CommandOutcome, RideCommandHandler } from '../transitions/ride-command';
import { RideWritesRepository } from '../transitions/ride-writes.repository';
import { checkRaisedOffer } from './offer.rules';

/**
 * `raise_offer`: the passenger's new price, only upwards, while the ride is requested (the table
 * judges who and when). Announced as ride.offer_raised, which reaches the drivers the matcher would
 * tell about a new request now, as ride_requested.
 */
@Injectable()
export class RaiseOfferHandler implements RideCommandHandler<'raise_offer'> {
  constructor(
    private readonly writes: RideWritesRepository,
    private readonly config: AppConfig,
  ) {}

  async run(ctx: ChangeContext<'raise_offer'>): Promise<CommandOutcome<'raise_offer'>> {
    const { ride: locked, command, tx } = ctx;
    checkRaisedOffer(command.offeredFareMinor, locked.offered_fare_minor, locked.estimated_fare_minor, this.config.minOfferPercent);
    await this.writes.setOfferedFare(locked.id, command.offeredFareMinor, tx);
    const ride = await ctx.view();
    const payload = {
      ride_id: ride.id,
      passenger_id: locked.passenger_id!,
      vehicle_category_id: locked.vehicle_category_id,
      pickup: { latitude: ride.pickup.latitude, longitude: ride.pickup.longitude },
      ride,
    };
    return { result: ride, event: { name: 'ride.offer_raised', payload } };
  }
}
