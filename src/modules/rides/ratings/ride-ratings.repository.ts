import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
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
 * Per side, the ride column that shows its stars (the passenger rates the driver: driver_rating).
 * Only these names ever reach the statements.
 */
const SIDES: Record<RatedBy, { rideColumn: string }> = {
  passenger: { rideColumn: 'driver_rating' },
  driver: { rideColumn: 'passenger_rating' },
};

/**
 * Ratings (CONTRACT §11), always inside the `rate` command's transaction with the ride row locked:
 * the rating row and the stars on the ride. The rated user's sum, count and average are written by
 * the module owning the row that keeps them (rating-averages.port.ts).
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
}
