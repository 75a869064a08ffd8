import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operators cancel rides (CONTRACT §13): `cancelled_by` may say `operator`, and the ride's history
 * (ride_events) names the operator as the one who acted.
 */
export class OperatorRideCancel1763900600000 implements MigrationInterface {
  name = 'OperatorRideCancel1763900600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rides DROP CONSTRAINT rides_cancelled_by_check`);
    await q.query(`ALTER TABLE rides ADD CONSTRAINT rides_cancelled_by_check CHECK (cancelled_by IN ('passenger', 'driver', 'operator'))`);
    await q.query(`ALTER TABLE ride_events DROP CONSTRAINT ride_events_actor_role_check`);
    await q.query(`ALTER TABLE ride_events ADD CONSTRAINT ride_events_actor_role_check CHECK (actor_role IN ('passenger', 'driver', 'system', 'operator'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ride_events DROP CONSTRAINT ride_events_actor_role_check`);
    await q.query(`ALTER TABLE ride_events ADD CONSTRAINT ride_events_actor_role_check CHECK (actor_role IN ('passenger', 'driver', 'system'))`);
    await q.query(`ALTER TABLE rides DROP CONSTRAINT rides_cancelled_by_check`);
    await q.query(`ALTER TABLE rides ADD CONSTRAINT rides_cancelled_by_check CHECK (cancelled_by IN ('passenger', 'driver'))`);
  }
}
