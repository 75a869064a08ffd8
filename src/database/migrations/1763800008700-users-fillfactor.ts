import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every token refresh rewrites users.refresh_token_hash, which is in no index: with free space left
 * on each page the new row version stays on the same page (a HOT update) and no index is touched.
 * Applies to pages written from now on (existing full pages gain room as rows move or on a rewrite).
 */
export class UsersFillfactor1763800008700 implements MigrationInterface {
  name = 'UsersFillfactor1763800008700';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users SET (fillfactor = 80)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users RESET (fillfactor)`);
  }
}
