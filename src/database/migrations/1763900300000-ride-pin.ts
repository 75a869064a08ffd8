import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The PIN at pickup (CONTRACT §14): the passenger's setting, the ride's PIN made at acceptance and
 * the wrong tries counted against it (kept with the ride, so the lock holds across instances).
 */
export class RidePin1763900300000 implements MigrationInterface {
  name = 'RidePin1763900300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN ride_pin varchar(8) NOT NULL DEFAULT 'off'`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_ride_pin_check CHECK (ride_pin IN ('off', 'always', 'night'))`);
    await q.query(`ALTER TABLE rides ADD COLUMN start_pin char(4)`);
    await q.query(`ALTER TABLE rides ADD COLUMN start_pin_failures smallint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE rides ADD CONSTRAINT rides_start_pin_check CHECK (start_pin ~ '^[0-9]{4}$')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rides DROP CONSTRAINT rides_start_pin_check`);
    await q.query(`ALTER TABLE rides DROP COLUMN start_pin_failures`);
    await q.query(`ALTER TABLE rides DROP COLUMN start_pin`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_ride_pin_check`);
    await q.query(`ALTER TABLE users DROP COLUMN ride_pin`);
  }
}
