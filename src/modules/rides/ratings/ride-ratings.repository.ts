import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { addRatingSql } from '../../../common/database/rating-average';
import { rowsOf } from '../../../common/database/sql-results';
import type { RatedBy } from './ride-rating.view';

export interface NewRideRating {
  rideId: string;
  ratedBy: RatedBy;
  raterId: number;
  ratedUserId: number | null;
  stars: number;
  comment: string | null;
}

/**
 * Per side, where its stars go: the ride column that shows them and the table whose row keeps the
 * rated user's average (the passenger rates the driver: drivers; the driver rates the passenger: users).
 * Only these names ever reach the statements.
 */
const SIDES: Record<RatedBy, { rideColumn: string; averages: string; key: string }> = {
  passenger: { rideColumn: 'driver_rating', averages: 'drivers', key: 'user_id' },
  driver: { rideColumn: 'passenger_rating', averages: 'users', key: 'id' },
};

/**
 * Ratings (CONTRACT §11), always inside the `rate` command's transaction with the ride row locked:
 * the rating row, the stars on the ride, and the rated user's sum, count and average. The averages
 * sit on the users and drivers rows (where every ride view and profile already reads them); this is
 * the only writer of those three columns, and their CHECK holds the average to the sum and count.
 */
@Injectable()
export class RideRatingsRepository {
  /** Whether `side` rated the (locked) ride already, and whether its completion is recent enough to rate it. */
  async stateOf(rideId: string, side: RatedBy, windowDays: number, tx: EntityManager): Promise<{ rated: boolean; open: boolean }> {
    const rows = rowsOf<{ rated: boolean; open: boolean }>(
      await tx.query(
        `SELECT ${SIDES[side].rideColumn} IS NOT NULL AS rated, COALESCE(completed_at + make_interval(days => $2) > now(), false) AS open
           FROM rides WHERE id = $1`,
        [rideId, windowDays],
      ),
    );
    return rows[0] ?? { rated: true, open: false };
  }

  /** The rating row and its time; undefined when the side's row exists (the primary key). */
  async insert(r: NewRideRating, tx: EntityManager): Promise<Date | undefined> {
    const rows = rowsOf<{ created_at: Date }>(
      await tx.query(
        `INSERT INTO ride_ratings (ride_id, rated_by, rater_id, rated_user_id, stars, comment) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (ride_id, rated_by) DO NOTHING RETURNING created_at`,
        [r.rideId, r.ratedBy, r.raterId, r.ratedUserId, r.stars, r.comment],
      ),
    );
    return rows[0]?.created_at;
  }

  /** The stars on the ride row (driver_rating or passenger_rating), and its updated_at. */
  async recordOnRide(rideId: string, side: RatedBy, stars: number, tx: EntityManager): Promise<void> {
    await tx.query(`UPDATE rides SET ${SIDES[side].rideColumn} = $2, updated_at = now() WHERE id = $1`, [rideId, stars]);
  }

  /** Adds the stars to the rated user's sum and count and rewrites the average from them, in one statement. */
  async addToAverage(ratedUserId: number, side: RatedBy, stars: number, tx: EntityManager): Promise<void> {
    const { averages, key } = SIDES[side];
    await tx.query(`UPDATE ${averages} SET ${addRatingSql('$2')} WHERE ${key} = $1`, [ratedUserId, stars]);
  }
}
