import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { UserRole } from '../../../common/auth/authenticated-user';
import { rowsOf } from '../../../common/database/sql-results';
import { IDENTITY_COLUMNS, IdentityRow, SESSION_COLUMNS, SessionUserRow } from './sign-in.repository';

/** Login's candidate: the sign-in state plus its login proof, if one is fresh (within the window). */
export interface LoginCandidateRow extends IdentityRow {
  login_proof_hash: string | null;
}

/** The refresh rotation, prepared once per pooled connection (see rotateRefreshToken). */
const ROTATE_STATEMENT = {
  name: 'auth_rotate_refresh_token',
  text: `UPDATE users SET refresh_token_hash = $3
           FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit
          WHERE id = $1 AND refresh_token_hash = $2 AND is_active AND NOT is_blocked
          RETURNING role`,
};

/**
 * The session side of the users table: login (with its proof), refresh-token rotation and replay
 * revocation, logout. Raw parameterised SQL: single-row statements, and refresh is a hot path.
 */
@Injectable()
export class SessionsRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Login's lookup: exact comparison, no normalisation. Should the two identifiers name two users,
   * the one matching both, then the one holding a login proof, then the oldest is taken. The proof
   * hash comes back only while it is within the window and unused.
   */
  async findForLogin(email: string | null, phone: string | null, windowMinutes: number): Promise<LoginCandidateRow | undefined> {
    const rows: LoginCandidateRow[] = await this.db.query(
      `SELECT ${IDENTITY_COLUMNS},
              CASE WHEN otp_verified_at > now() - make_interval(mins => $3) THEN login_proof_hash END AS login_proof_hash
         FROM users
        WHERE email = $1 OR phone = $2
        ORDER BY (email IS NOT DISTINCT FROM $1 AND phone IS NOT DISTINCT FROM $2) DESC,
                 (otp_verified_at IS NOT NULL) DESC, id
        LIMIT 1`,
      [email, phone, windowMinutes],
    );
    return rows[0];
  }

  /**
   * Consumes the login proof (the verify-otp whose access token the caller presented, within the
   * window, not used before) and opens the session, in one statement so that one proof yields one login.
   */
  async consumeLoginProof(
    userId: number,
    proof: { hash: string; windowMinutes: number },
    session: { refreshTokenHash: string; family: string },
    deviceToken: string | undefined,
  ): Promise<SessionUserRow | undefined> {
    const rows = rowsOf<SessionUserRow>(
      await this.db.query(
        `UPDATE users SET otp_verified_at = NULL, login_proof_hash = NULL, last_login_at = now(), login_count = login_count + 1,
                device_token = COALESCE($4, device_token), refresh_token_hash = $3, refresh_token_family = $5, updated_at = now()
          WHERE id = $1 AND is_verified AND is_active AND NOT is_blocked
            AND otp_verified_at > now() - make_interval(mins => $2) AND login_proof_hash = $6
          RETURNING ${SESSION_COLUMNS}`,
        [userId, proof.windowMinutes, session.refreshTokenHash, deviceToken ?? null, session.family, proof.hash],
      ),
    );
    return rows[0];
  }

  /**
   * Refresh rotation in one statement: the new hash replaces the presented one only if it is still
   * the stored one and the account may hold a session. Of two concurrent refreshes one wins.
   *
   * Hot path, so: the pg pool directly (one round trip, no TypeORM query runner per call), a named
   * statement (each pooled connection parses and plans it once: that nearly doubled the rotations
   * PostgreSQL serves on a 2-core machine), and a commit that does not wait for the WAL flush.
   * set_config(..., true) is transaction-local: synchronous_commit is off for this statement's own
   * implicit transaction only (read at its commit, reset right after; the pooled connection keeps
   * the default), so the commit returns without waiting for an fsync.
   *
   * Trade-off: a database crash may lose the last fraction of a second of rotations (at most three
   * wal_writer_delay periods). For those users the row reverts to the hash before the refresh; the
   * client holds a new token the database never kept and must log in again. Nothing becomes valid
   * that was not valid before the refresh, so it is an availability cost, not a security one.
   * fillfactor 80 on users (migration 1763800008700) keeps this update HOT: refresh_token_hash is
   * in no index, so no index entry is written.
   */
  async rotateRefreshToken(userId: number, oldHash: string, newHash: string): Promise<UserRole | undefined> {
    const result = await this.pool().query<{ role: UserRole }>({ ...ROTATE_STATEMENT, values: [userId, oldHash, newHash] });
    return result.rows[0]?.role;
  }

  private pool(): Pool {
    return (this.db.driver as unknown as { master: Pool }).master;
  }

  /**
   * Why a rotation failed: the token is not the stored one, or the account may not hold a session.
   * `replayed`: not the stored token, yet of the stored token's family, i.e. already rotated.
   */
  async refreshTokenState(
    userId: number,
    hash: string,
    family: string | undefined,
  ): Promise<{ matches: boolean; allowed: boolean; replayed: boolean } | undefined> {
    const rows: Array<{ matches: boolean; allowed: boolean; replayed: boolean }> = await this.db.query(
      `SELECT refresh_token_hash IS NOT DISTINCT FROM $2 AS matches, (is_active AND NOT is_blocked) AS allowed,
              (refresh_token_family::text = $3 AND refresh_token_hash IS DISTINCT FROM $2) IS TRUE AS replayed
         FROM users WHERE id = $1`,
      [userId, hash, family ?? null],
    );
    return rows[0];
  }

  /**
   * Ends the session of a replayed family: refresh token dropped, access tokens issued before
   * `cutoffSeconds` refused. False when the family is no longer the stored one (already revoked,
   * or replaced by a new login in between, which stays untouched).
   */
  async revokeFamily(userId: number, family: string, cutoffSeconds: number): Promise<boolean> {
    const rows = rowsOf<{ id: number }>(
      await this.db.query(
        `UPDATE users SET refresh_token_hash = NULL, refresh_token_family = NULL, login_proof_hash = NULL,
                tokens_valid_after = to_timestamp($3), updated_at = now()
          WHERE id = $1 AND refresh_token_family::text = $2
          RETURNING id`,
        [userId, family, cutoffSeconds],
      ),
    );
    return rows.length > 0;
  }

  /** Logout: refresh token, device token and login proof cleared, access tokens issued before `cutoffSeconds` refused. */
  async clearSession(userId: number, cutoffSeconds: number): Promise<void> {
    await this.db.query(
      `UPDATE users SET refresh_token_hash = NULL, refresh_token_family = NULL, device_token = NULL, login_proof_hash = NULL,
              tokens_valid_after = to_timestamp($2), updated_at = now()
        WHERE id = $1`,
      [userId, cutoffSeconds],
    );
  }
}
