import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { UserRole } from '../../../common/auth/authenticated-user';
import { rowsOf } from '../../../common/database/sql-results';
import { PUBLIC_USER_COLUMNS, PublicUserRow } from '../dto/user-response.dto';

/** What identity resolution and the sign-in checks need of a user. */
export interface IdentityRow {
  id: number;
  phone: string | null;
  email: string | null;
  role: UserRole;
  is_registered: boolean;
  is_verified: boolean;
  is_active: boolean;
  is_blocked: boolean;
}

export interface OtpStateRow extends IdentityRow {
  otp_code_hash: string | null;
  otp_expires_at: Date | null;
  otp_failed_attempts: number;
}

export type SessionUserRow = PublicUserRow & { is_registered: boolean };

export interface ContactFill {
  phone?: string;
  email?: string;
}

export interface VerifiedChanges {
  fill: ContactFill;
  phoneVerified: boolean;
  emailVerified: boolean;
  refreshTokenHash: string;
  refreshTokenFamily: string;
  /** SHA-256 of the access token returned with this verification: login's proof. */
  loginProofHash: string;
}

export interface RegistrationChanges {
  phone?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  deviceToken?: string;
  profilePicture?: string;
  role: UserRole;
}

export const IDENTITY_COLUMNS = 'id, phone, email, role, is_registered, is_verified, is_active, is_blocked';
export const SESSION_COLUMNS = `${PUBLIC_USER_COLUMNS}, is_registered`;

/**
 * The sign-in side of the users table (identity lookup, OTP state, registration); sessions (login,
 * refresh, logout) are SessionsRepository's. Auth decides (UserSignInService is its way in); the
 * users module, which owns the table, writes. Raw parameterised SQL: these are single-row statements.
 */
@Injectable()
export class SignInRepository {
  constructor(private readonly db: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.db.manager;
  }

  runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async findByPhoneAndEmail(phone: string, email: string): Promise<IdentityRow | undefined> {
    const rows: IdentityRow[] = await this.db.query(`SELECT ${IDENTITY_COLUMNS} FROM users WHERE phone = $1 AND email = $2`, [phone, email]);
    return rows[0];
  }

  async findByPhone(phone: string): Promise<IdentityRow | undefined> {
    const rows: IdentityRow[] = await this.db.query(`SELECT ${IDENTITY_COLUMNS} FROM users WHERE phone = $1`, [phone]);
    return rows[0];
  }

  async findByEmail(email: string): Promise<IdentityRow | undefined> {
    const rows: IdentityRow[] = await this.db.query(`SELECT ${IDENTITY_COLUMNS} FROM users WHERE email = $1`, [email]);
    return rows[0];
  }

  /**
   * A pending user (role passenger, no names); undefined when a concurrent request created it first.
   * Its commit does not wait for the WAL flush (synchronous_commit off for this statement's own
   * transaction, as the refresh rotation does): send-otp for a phone nobody used then costs about
   * what it costs for a known one (one flushed commit, the OTP), so its timing does not tell them
   * apart. A crash may lose a pending row from the last fraction of a second; the next send-otp
   * creates it again.
   */
  async insertPending(phone: string | undefined, email: string | undefined): Promise<IdentityRow | undefined> {
    const rows: IdentityRow[] = await this.db.query(
      `INSERT INTO users (phone, email, role)
       SELECT $1, $2, 'passenger' FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit
       ON CONFLICT DO NOTHING RETURNING ${IDENTITY_COLUMNS}`,
      [phone ?? null, email ?? null],
    );
    return rows[0];
  }

  /**
   * send-otp with one contact detail: the user it names, or a new pending one, in one statement, so
   * a known and an unknown contact cost the same round trip (the timing tells nobody which it was).
   * Undefined when a concurrent request created the user between this statement's snapshot and its
   * insert (the caller looks again).
   */
  async findOrInsertPending(contact: { phone: string } | { email: string }): Promise<IdentityRow | undefined> {
    const [column, value] = 'phone' in contact ? ['phone', contact.phone] : ['email', contact.email];
    const rows: IdentityRow[] = await this.db.query(
      `WITH found AS (SELECT ${IDENTITY_COLUMNS} FROM users WHERE ${column} = $1),
            created AS (
              INSERT INTO users (${column}, role)
              SELECT $1, 'passenger' FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit
               WHERE NOT EXISTS (SELECT 1 FROM found)
              ON CONFLICT DO NOTHING RETURNING ${IDENTITY_COLUMNS})
       SELECT * FROM found UNION ALL SELECT * FROM created`,
      [value],
    );
    return rows[0];
  }

  /** A new code replaces the old one and resets its failed-attempt count; a pending user's missing contact is filled. */
  async storeOtp(userId: number, codeHash: string, ttlSeconds: number, fill: ContactFill): Promise<void> {
    await this.db.query(
      `UPDATE users SET otp_code_hash = $2, otp_expires_at = now() + make_interval(secs => $3), otp_failed_attempts = 0,
              phone = COALESCE(phone, $4), email = COALESCE(email, $5), updated_at = now()
        WHERE id = $1`,
      [userId, codeHash, ttlSeconds, fill.phone ?? null, fill.email ?? null],
    );
  }

  /** A code that could not be delivered stops working; a newer code stored meanwhile is left alone. */
  async voidOtp(userId: number, codeHash: string): Promise<void> {
    await this.db.query(`UPDATE users SET otp_code_hash = NULL, otp_expires_at = NULL WHERE id = $1 AND otp_code_hash = $2`, [userId, codeHash]);
  }

  /** Locks the user's row so that concurrent guesses are counted one after another. */
  async lockOtpState(userId: number, manager: EntityManager): Promise<OtpStateRow | undefined> {
    const rows: OtpStateRow[] = await manager.query(
      `SELECT ${IDENTITY_COLUMNS}, otp_code_hash, otp_expires_at, otp_failed_attempts FROM users WHERE id = $1 FOR UPDATE`,
      [userId],
    );
    return rows[0];
  }

  /** Counts a wrong code; the code is void (cleared) once `maxAttempts` wrong codes were tried. */
  async recordFailedOtp(userId: number, maxAttempts: number, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE users SET otp_failed_attempts = otp_failed_attempts + 1,
              otp_code_hash = CASE WHEN otp_failed_attempts + 1 >= $2 THEN NULL ELSE otp_code_hash END,
              otp_expires_at = CASE WHEN otp_failed_attempts + 1 >= $2 THEN NULL ELSE otp_expires_at END
        WHERE id = $1`,
      [userId, maxAttempts],
    );
  }

  /** A successful verify-otp: flags set, code cleared, login proof recorded, new refresh token stored. */
  async markVerified(userId: number, changes: VerifiedChanges, manager: EntityManager): Promise<SessionUserRow> {
    const rows = rowsOf<SessionUserRow>(
      await manager.query(
        `UPDATE users SET is_verified = true,
                is_phone_verified = is_phone_verified OR $2, is_email_verified = is_email_verified OR $3,
                phone = COALESCE(phone, $4), email = COALESCE(email, $5),
                otp_code_hash = NULL, otp_expires_at = NULL, otp_failed_attempts = 0, otp_verified_at = now(), login_proof_hash = $8,
                refresh_token_hash = $6, refresh_token_family = $7, updated_at = now()
          WHERE id = $1
          RETURNING ${SESSION_COLUMNS}`,
        [
          userId,
          changes.phoneVerified,
          changes.emailVerified,
          changes.fill.phone ?? null,
          changes.fill.email ?? null,
          changes.refreshTokenHash,
          changes.refreshTokenFamily,
          changes.loginProofHash,
        ],
      ),
    );
    return rows[0]!;
  }

  async isEmailHeldByOther(email: string, userId: number, manager: EntityManager): Promise<boolean> {
    const rows = await manager.query(`SELECT 1 FROM users WHERE email = $1 AND id <> $2`, [email, userId]);
    return rows.length > 0;
  }

  async lockForRegistration(userId: number, manager: EntityManager): Promise<(IdentityRow & { profile_picture: string | null }) | undefined> {
    const rows = await manager.query(`SELECT ${IDENTITY_COLUMNS}, profile_picture FROM users WHERE id = $1 FOR UPDATE`, [userId]);
    return rows[0];
  }

  /** Writes the profile and the account-completed marker. */
  async completeRegistration(userId: number, c: RegistrationChanges, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE users SET phone = COALESCE(phone, $2), email = COALESCE(email, $3),
              first_name = COALESCE($4, first_name), last_name = COALESCE($5, last_name),
              device_token = COALESCE($6, device_token), profile_picture = COALESCE($7, profile_picture),
              role = $8, is_registered = true, registered_at = now(), updated_at = now()
        WHERE id = $1`,
      [userId, c.phone ?? null, c.email ?? null, c.firstName ?? null, c.lastName ?? null, c.deviceToken ?? null, c.profilePicture ?? null, c.role],
    );
  }

  /** Stores a registered user's first refresh token; undefined when the account changed under us. */
  async storeSessionAfterRegistration(userId: number, refreshTokenHash: string, family: string): Promise<SessionUserRow | undefined> {
    const rows = rowsOf<SessionUserRow>(
      await this.db.query(
        `UPDATE users SET refresh_token_hash = $2, refresh_token_family = $3
          WHERE id = $1 AND is_registered AND is_active AND NOT is_blocked
          RETURNING ${SESSION_COLUMNS}`,
        [userId, refreshTokenHash, family],
      ),
    );
    return rows[0];
  }
}
