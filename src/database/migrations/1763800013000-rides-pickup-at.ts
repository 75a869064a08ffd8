import { MigrationInterface, QueryRunner } from 'typeorm';

const LIVE = `('requested', 'accepted', 'driver_arrived', 'started')`;
const NON_FINAL = `('scheduled', 'requested', 'accepted', 'driver_arrived', 'started')`;

/**
 * Rides booked for later (CONTRACT §11): `pickup_at` (null for a ride now), the `scheduled` status
 * and `dispatch_at`, the time the dispatcher makes the ride `requested` (pickup_at minus
 * DISPATCH_LEAD_MINUTES at booking). Ride codes stay unique among every non-final ride, scheduled
 * ones included. A scheduled ride is dispatched even while its passenger has another live ride, so
 * the one-live-ride index covers rides booked for now only (booking checks the rest).
 */
export class RidesPickupAt1763800013000 implements MigrationInterface {
  name = 'RidesPickupAt1763800013000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rides ADD COLUMN pickup_at timestamptz, ADD COLUMN dispatch_at timestamptz`);
    await q.query(`ALTER TABLE rides DROP CONSTRAINT rides_status_check`);
    await q.query(
      `ALTER TABLE rides ADD CONSTRAINT rides_status_check
        CHECK (status IN ('scheduled', 'requested', 'accepted', 'driver_arrived', 'started', 'completed', 'cancelled', 'expired'))`,
    );
    await q.query(`DROP INDEX rides_code_live_uq`);
    await q.query(`CREATE UNIQUE INDEX rides_code_live_uq ON rides (ride_code) WHERE status IN ${NON_FINAL}`);
    await q.query(`DROP INDEX rides_passenger_live_uq`);
    await q.query(`CREATE UNIQUE INDEX rides_passenger_live_uq ON rides (passenger_id) WHERE status IN ${LIVE} AND pickup_at IS NULL`);
    // The passenger's live rides, dispatched ones included (active ride, snapshot, booking's check).
    await q.query(`CREATE INDEX rides_passenger_live_idx ON rides (passenger_id) WHERE status IN ${LIVE}`);
    await q.query(`CREATE INDEX rides_scheduled_dispatch_idx ON rides (dispatch_at) WHERE status = 'scheduled'`);
    await q.query(`CREATE INDEX rides_passenger_scheduled_idx ON rides (passenger_id, pickup_at) WHERE status = 'scheduled'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM rides WHERE status = 'scheduled'`);
    await q.query(`DROP INDEX rides_passenger_scheduled_idx`);
    await q.query(`DROP INDEX rides_scheduled_dispatch_idx`);
    await q.query(`DROP INDEX rides_passenger_live_idx`);
    await q.query(`DROP INDEX rides_passenger_live_uq`);
    await q.query(`CREATE UNIQUE INDEX rides_passenger_live_uq ON rides (passenger_id) WHERE status IN ${LIVE}`);
    await q.query(`DROP INDEX rides_code_live_uq`);
    await q.query(`CREATE UNIQUE INDEX rides_code_live_uq ON rides (ride_code) WHERE status IN ${LIVE}`);
    await q.query(`ALTER TABLE rides DROP CONSTRAINT rides_status_check`);
    await q.query(
      `ALTER TABLE rides ADD CONSTRAINT rides_status_check
        CHECK (status IN ('requested', 'accepted', 'driver_arrived', 'started', 'completed', 'cancelled', 'expired'))`,
    );
    await q.query(`ALTER TABLE rides DROP COLUMN dispatch_at, DROP COLUMN pickup_at`);
  }
}
