import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Session revocation (RFC 9700 section 4.14.2): the family of the stored refresh token, so that a
 * replayed, already rotated token of the same login is recognised, and the instant before which
 * no access token of the user is accepted any more (logout, refresh-token replay).
 * Neither column is indexed: the refresh rotation stays a HOT update (see 1763800008700).
 */
export class UsersSessionRevocation1763800009300 implements MigrationInterface {
  name = 'UsersSessionRevocation1763800009300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN refresh_token_family uuid NULL, ADD COLUMN tokens_valid_after timestamptz NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN tokens_valid_after, DROP COLUMN refresh_token_family`);
  }
}
