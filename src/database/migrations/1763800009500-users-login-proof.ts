import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Login's proof of possession (CONTRACT §3): the SHA-256 of the access token the last verify-otp
 * returned. Login must present that very token as its bearer, so knowing a phone number during the
 * window is not enough. Not indexed: it is read and cleared by primary key only.
 */
export class UsersLoginProof1763800009500 implements MigrationInterface {
  name = 'UsersLoginProof1763800009500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN login_proof_hash varchar(128) NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN login_proof_hash`);
  }
}
