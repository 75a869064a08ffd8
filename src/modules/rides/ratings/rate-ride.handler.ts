import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { DriverRatingsPort, PassengerRatingsPort } from '../rating-averages.port';
import { RideError } from '../rides.errors';
import type { ChangeContext, CommandOutcome, RideCommandHandler } from '../transitions/ride-command';
import type { RatedBy, RideRatingView } from './ride-rating.view';
import { RideRatingsRepository } from './ride-ratings.repository';

/**
 * `rate`: the table lets the ride's passenger and its driver rate a completed ride; this adds "once
 * per side" and the window. The ride row is locked for the whole transaction, so two ratings by one
 * side run one after the other and the second finds the first (the primary key of ride_ratings
 * would refuse it anyway). The rating row, the stars on the ride and the rated user's average are
 * written together.
 */
@Injectable()
export class RateRideHandler implements RideCommandHandler<'rate'> {
  constructor(
    private readonly ratings: RideRatingsRepository,
    private readonly passengerRatings: PassengerRatingsPort,
    private readonly driverRatings: DriverRatingsPort,
    private readonly config: AppConfig,
  ) {}

  async run(ctx: ChangeContext<'rate'>): Promise<CommandOutcome<'rate'>> {
    const { ride, tx, command } = ctx;
    const side: RatedBy = ctx.party === 'driver' ? 'driver' : 'passenger';
    const state = await this.ratings.stateOf(ride.id, side, this.config.ratingWindowDays, tx);
    if (state.rated) throw new RideError('RIDE_ALREADY_RATED');
    if (!state.open) throw new RideError('RATING_WINDOW_CLOSED');
    const raterId = side === 'passenger' ? ride.passenger_id! : ride.driver_id!;
    const ratedUserId = side === 'passenger' ? ride.driver_id : ride.passenger_id;
    const createdAt = await this.ratings.insert({ rideId: ride.id, ratedBy: side, raterId, ratedUserId, stars: command.stars, comment: command.comment }, tx);
    if (!createdAt) throw new RideError('RIDE_ALREADY_RATED');
    await this.ratings.recordOnRide(ride.id, side, command.stars, tx);
    if (ratedUserId !== null) {
      // The passenger rates the driver (drivers.rating), the driver rates the passenger (users.rating).
      if (side === 'passenger') await this.driverRatings.addDriverRating(ratedUserId, command.stars, tx);
      else await this.passengerRatings.addPassengerRating(ratedUserId, command.stars, tx);
    }
    const view = await ctx.view();
    const rating: RideRatingView = { ride_id: ride.id, rated_by: side, stars: command.stars, comment: command.comment, created_at: createdAt.toISOString() };
    const payload = { ride_id: ride.id, passenger_id: ride.passenger_id, driver_id: ride.driver_id, rated_user_id: ratedUserId, rating, ride: view };
    return { result: rating, event: { name: 'ride.rated', payload } };
  }
}
