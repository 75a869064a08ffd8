import { MigrationInterface, QueryRunner } from 'typeorm';

/** The average a rated user shows: exact from the sum and count beside it, null with no ratings (CONTRACT §11). */
export function ratingAverageCheck(table: 'users' | 'drivers'): string {
  return `${table}_rating_average_check`;
}
export const RATING_AVERAGE_RULE = 'rating IS NOT DISTINCT FROM (CASE WHEN ratings_count = 0 THEN NULL ELSE round(rating_sum::numeric / ratings_count, 2) END)';

/**
 * Ratings both ways (CONTRACT §11): one row per ride and side (the primary key makes "once each"
 * hold whatever the application does), the stars on the ride itself (`driver_rating`: what the
 * passenger gave the driver; `passenger_rating`: what the driver gave the passenger), and each
 * rated user's running sum and count with the average they give. The average is written in the
 * same UPDATE as the sum and count, and a CHECK refuses any row where it is not exactly
 * round(sum / count, 2): it cannot drift from the rows. A driver's average lives on drivers
 * (replacing the seed's fixed 5.00), a passenger's on users.
 */
export class RideRatings1763800014000 implements MigrationInterface {
  name = 'RideRatings1763800014000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ride_ratings (
        ride_id        uuid         NOT NULL REFERENCES rides(id) ON DELETE CASCADE,
        rated_by       varchar(16)  NOT NULL CONSTRAINT ride_ratings_rated_by_check CHECK (rated_by IN ('passenger', 'driver')),
        rater_id       integer      REFERENCES users(id) ON DELETE SET NULL,
        rated_user_id  integer      REFERENCES users(id) ON DELETE SET NULL,
        stars          smallint     NOT NULL CONSTRAINT ride_ratings_stars_check CHECK (stars BETWEEN 1 AND 5),
        comment        varchar(500),
        created_at     timestamptz  NOT NULL DEFAULT now(),
        PRIMARY KEY (ride_id, rated_by)
      )`);
    await q.query(`CREATE INDEX ride_ratings_rated_user_idx ON ride_ratings (rated_user_id, created_at)`);
    await q.query(`ALTER TABLE rides ADD COLUMN driver_rating smallint NULL CONSTRAINT rides_driver_rating_check CHECK (driver_rating BETWEEN 1 AND 5)`);
    await q.query(
      `ALTER TABLE rides ADD COLUMN passenger_rating smallint NULL CONSTRAINT rides_passenger_rating_check CHECK (passenger_rating BETWEEN 1 AND 5)`,
    );

    await q.query(`ALTER TABLE drivers ALTER COLUMN rating DROP DEFAULT, ALTER COLUMN rating DROP NOT NULL`);
    await q.query(`UPDATE drivers SET rating = NULL`);
    for (const table of ['users', 'drivers'] as const) {
      if (table === 'users') await q.query(`ALTER TABLE users ADD COLUMN rating numeric(3,2) NULL`);
      await q.query(`ALTER TABLE ${table} ADD COLUMN rating_sum integer NOT NULL DEFAULT 0, ADD COLUMN ratings_count integer NOT NULL DEFAULT 0`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${ratingAverageCheck(table)} CHECK (${RATING_AVERAGE_RULE})`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['users', 'drivers'] as const) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${ratingAverageCheck(table)}, DROP COLUMN rating_sum, DROP COLUMN ratings_count`);
    }
    await q.query(`ALTER TABLE users DROP COLUMN rating`);
    await q.query(`UPDATE drivers SET rating = 5.00`);
    await q.query(`ALTER TABLE drivers ALTER COLUMN rating SET DEFAULT 5.00, ALTER COLUMN rating SET NOT NULL`);
    await q.query(`ALTER TABLE rides DROP COLUMN driver_rating, DROP COLUMN passenger_rating`);
    await q.query(`DROP TABLE ride_ratings`);
  }
}
