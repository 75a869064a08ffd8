import { Injectable } from '@nestjs/common';
import { RIDE_VIEW_COLUMNS, RIDE_VIEW_JOINS } from '../read-models/ride-view';
import type { RatedBy } from './ride-rating.view';

/** The rated user's part of the statement: an UPDATE adding `stars` to user `userId`, RETURNING the new `rating` (rating-averages.port.ts). */
export type AddRatingSql = (userId: string, stars: string) => string;

/** What the rating statement's `act` row carries beside, once rated, the ride's view. */
export interface RatingActed {
  already_rated: boolean;
  open: boolean;
  rated_user_id: number | null;
  /** The rating row's, when it was written. */
  rated_by: RatedBy | null;
  created_at_rating: Date | null;
  /** The rated user's new average (2 decimals), when one was written. */
  new_average: number | null;
}

/**
 * Ratings (CONTRACT §11): the rating row, the stars on the ride (driver_rating, the passenger's for
 * the driver; passenger_rating, the driver's for the passenger), and through the owners' parts the
 * rated user's sum, count and average, all in the `rate` command's one statement.
 */
@Injectable()
export class RideRatingsRepository {
  /**
   * The rating's CTEs over the locked ride `l` (RideStepsRepository.actOnLocked), the side being
   * `l.party`: where `allowed` holds, the side has not rated the ride and its completion is within
   * `windowDays`, the rating row (its primary key (ride, side) refusing a second), then only if it
   * was written the stars on the ride and the rated user's average (`driver`: drivers.rating for a
   * passenger's rating, `passenger`: users.rating for a driver's). `act` (RatingActed) reports each
   * judgement, for the refusal, and the ride's view.
   */
  rateWhere(
    rating: { stars: number; comment: string | null; windowDays: number },
    averages: { driver: AddRatingSql; passenger: AddRatingSql },
    allowed: string,
    param: (value: unknown) => string,
  ): string {
    const stars = `${param(rating.stars)}::int`;
    return `rate_rule AS (
        SELECT CASE l.party WHEN 'passenger' THEN l.driver_rating WHEN 'driver' THEN l.passenger_rating END IS NOT NULL AS rated,
               coalesce(l.completed_at + make_interval(days => ${param(rating.windowDays)}::int) > now(), false) AS open,
               CASE l.party WHEN 'passenger' THEN l.driver_id ELSE l.passenger_id END AS rated_user_id,
               CASE l.party WHEN 'passenger' THEN l.passenger_id ELSE l.driver_id END AS rater_id
          FROM l),
      rating_row AS (
        INSERT INTO ride_ratings (ride_id, rated_by, rater_id, rated_user_id, stars, comment)
        SELECT l.id, l.party, g.rater_id, g.rated_user_id, ${stars}, ${param(rating.comment)}::varchar FROM l, rate_rule g
         WHERE (${allowed}) AND NOT g.rated AND g.open
        ON CONFLICT (ride_id, rated_by) DO NOTHING
        RETURNING rated_by, rated_user_id, created_at),
      rated AS (
        UPDATE rides SET driver_rating = CASE WHEN g.rated_by = 'passenger' THEN ${stars} ELSE rides.driver_rating END,
               passenger_rating = CASE WHEN g.rated_by = 'driver' THEN ${stars} ELSE rides.passenger_rating END, updated_at = now()
          FROM l, rating_row g WHERE rides.id = l.id
        RETURNING rides.*),
      rated_driver AS (${averages.driver(`(SELECT rated_user_id FROM rating_row WHERE rated_by = 'passenger')`, stars)}),
      rated_passenger AS (${averages.passenger(`(SELECT rated_user_id FROM rating_row WHERE rated_by = 'driver')`, stars)}),
      act AS (
        SELECT g.rated AS already_rated, g.open, g.rated_user_id, w.rated_by, w.created_at AS created_at_rating,
               coalesce((SELECT rating FROM rated_driver), (SELECT rating FROM rated_passenger))::float8 AS new_average, v.*
          FROM rate_rule g LEFT JOIN rating_row w ON true
          LEFT JOIN (SELECT ${RIDE_VIEW_COLUMNS} FROM rated r ${RIDE_VIEW_JOINS}) v ON true)`;
  }
}
