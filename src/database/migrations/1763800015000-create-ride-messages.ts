import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * In-ride chat (CONTRACT §11): the messages the passenger and the assigned driver send each other,
 * stored trimmed. Read per ride oldest first, hence (ride_id, created_at); clock_timestamp(), not the
 * transaction's start, so the order is the order of insertion. A deleted account's messages keep
 * their role and text; only sender_id is cleared.
 */
export class CreateRideMessages1763800015000 implements MigrationInterface {
  name = 'CreateRideMessages1763800015000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ride_messages (
        id          uuid PRIMARY KEY,
        ride_id     uuid          NOT NULL REFERENCES rides(id) ON DELETE CASCADE,
        sender_id   integer       REFERENCES users(id) ON DELETE SET NULL,
        sender_role varchar(16)   NOT NULL CHECK (sender_role IN ('passenger', 'driver')),
        text        varchar(1000) NOT NULL CHECK (char_length(text) >= 1),
        created_at  timestamptz   NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX ride_messages_ride_created_idx ON ride_messages (ride_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ride_messages`);
  }
}
