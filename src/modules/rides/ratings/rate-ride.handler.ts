import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { DriverRatingsPort, PassengerRatingsPort } from '../rating-averages.port';
import { rideToJson, RideView, RideViewRow } from '../read-models/ride-view';
import { RideError } from '../rides.errors';
import type { CommandOf, CommandOutcome, RideActHandler } from '../transitions/ride-command';
import type { LockedRide } from '../transitions/ride-writes.repository';
import type { RideRatingView } from './ride-rating.view';
import { RatingActed, RideRatingsRepository } from './ride-ratings.repository';

/**
 * `rate`: the table lets the ride's passenger and its driver rate a completed ride; this adds "once
 * per side" and the window. One statement (act: the ride locked, the rules judged, the rating row,
 * the stars on the ride, the rated user's average through its owner's part, and the ride's view),
 * refused from what it found. The ride row's lock orders two ratings by one side: the second finds
 * the first (and the primary key of ride_ratings would refuse it anyway).
 */
@Injectable()
export class RateRideHandler implements RideActHandler<'rate'> {
  constructor(
    private readonly ratings: RideRatingsRepository,
    private readonly passengerRatings: PassengerRatingsPort,
    private readonly driverRatings: DriverRatingsPort,
    private readonly config: AppConfig,
  ) {}

  act(command: CommandOf<'rate'>, _actor: { id: number }, allowed: string, param: (value: unknown) => string): string {
    const averages = {
      driver: (userId: string, stars: string) => this.driverRatings.addDriverRatingSql(userId, stars),
      passenger: (userId: string, stars: string) => this.passengerRatings.addPassengerRatingSql(userId, stars),
    };
    const rating = { stars: command.stars, comment: command.comment, windowDays: this.config.ratingWindowDays };
    return this.ratings.rateWhere(rating, averages, allowed, param);
  }

  settle({ command, ride }: { command: CommandOf<'rate'>; ride: LockedRide }, acted: Record<string, unknown> | undefined): CommandOutcome<'rate'> {
    const found = acted as (RatingActed & Partial<RideViewRow>) | undefined;
    if (!found) throw new Error('the rating statement answered no row');
    if (found.already_rated) throw new RideError('RIDE_ALREADY_RATED');
    if (!found.open) throw new RideError('RATING_WINDOW_CLOSED');
    // The primary key refused it: a concurrent rating by the same side won.
    if (!found.rated_by || !found.created_at_rating) throw new RideError('RIDE_ALREADY_RATED');
    const side = found.rated_by;
    const view = withAverage(rideToJson(found as RideViewRow), side === 'passenger' ? 'driver' : 'passenger', found.new_average);
    const rating: RideRatingView = {
      ride_id: ride.id,
      rated_by: side,
      stars: command.stars,
      comment: command.comment,
      created_at: found.created_at_rating.toISOString(),
    };
    const payload = { ride_id: ride.id, passenger_id: ride.passenger_id, driver_id: ride.driver_id, rated_user_id: found.rated_user_id, rating, ride: view };
    return { result: rating, event: { name: 'ride.rated', payload } };
  }
}

/** The ride with the rated user's new average: its view was read in the statement that wrote it, which sees the rows as they were before. */
function withAverage(view: RideView, rated: 'driver' | 'passenger', average: number | null): RideView {
  const user = view[rated];
  return user && average !== null ? { ...view, [rated]: { ...user, rating: average } } : view;
}
