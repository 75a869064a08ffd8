import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Trip sharing (CONTRACT §11): a link is known by the SHA-256 of its token (the token itself is
 * never stored, so a copy of the table opens no trip). A link ends when revoked or 30 minutes after
 * its ride is final; the latter is read from the ride, so nothing has to sweep the table.
 */
export class RideShareLinks1763800014010 implements MigrationInterface {
  name = 'RideShareLinks1763800014010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ride_share_links (
        token_hash  char(64)     PRIMARY KEY,
        ride_id     uuid         NOT NULL REFERENCES rides(id) ON DELETE CASCADE,
        created_at  timestamptz  NOT NULL DEFAULT now(),
        revoked_at  timestamptz
      )`);
    await q.query(`CREATE INDEX ride_share_links_ride_idx ON ride_share_links (ride_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ride_share_links`);
  }
}
