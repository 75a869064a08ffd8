import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §11: the passenger's own price (offered_fare), the tip paid after completion, and the
 * surge multiplier every stored estimate carries (rides priced before surge existed were calm: 1).
 */
export class RidesOfferTipSurge1763800012000 implements MigrationInterface {
  name = 'RidesOfferTipSurge1763800012000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rides ADD COLUMN offered_fare_minor bigint, ADD COLUMN tip_minor bigint, ADD COLUMN tipped_at timestamptz`);
    await q.query(`UPDATE rides SET estimate = estimate || '{"surgeMultiplier": 1}'::jsonb WHERE NOT estimate ? 'surgeMultiplier'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE rides SET estimate = estimate - 'surgeMultiplier'`);
    await q.query(`ALTER TABLE rides DROP COLUMN tipped_at, DROP COLUMN tip_minor, DROP COLUMN offered_fare_minor`);
  }
}
