import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user's emergency contacts (CONTRACT §14): at most three `{name, phone}`, kept on the users row
 * as one jsonb array (always read and replaced whole, never queried by contact).
 */
export class EmergencyContacts1763900300100 implements MigrationInterface {
  name = 'EmergencyContacts1763900300100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN emergency_contacts jsonb NOT NULL DEFAULT '[]'`);
    await q.query(
      `ALTER TABLE users ADD CONSTRAINT users_emergency_contacts_check CHECK (jsonb_typeof(emergency_contacts) = 'array' AND jsonb_array_length(emergency_contacts) <= 3)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_emergency_contacts_check`);
    await q.query(`ALTER TABLE users DROP COLUMN emergency_contacts`);
  }
}
