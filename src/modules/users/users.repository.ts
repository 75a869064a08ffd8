import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import type { UserRole } from '../../common/auth/authenticated-user';
import type { OperatorRole } from '../../common/auth/operator-permissions';
import { PUBLIC_USER_COLUMNS, PublicUserRow } from './dto/user-response.dto';
import { UserEntity } from './entities/user.entity';
import { addRatingSql } from '../../common/database/rating-average';
import { rowsOf } from '../../common/database/sql-results';
import type { RidePinSetting } from '../rides/ride-pin-settings.port';

export interface UserAuthState {
  id: number;
  role: UserRole;
  isActive: boolean;
  isBlocked: boolean;
  isRegistered: boolean;
  /** Access tokens with an `iat` (seconds) below this are refused; 0 when never revoked. */
  tokensValidAfter: number;
  /** Set for operators only. */
  operatorRole?: OperatorRole | null;
}

/** The drivers row as `me` shows it (the drivers module owns the table; this is a read-only view). */
export interface ProfileChanges {
  email?: string;
  firstName?: string;
  lastName?: string;
  profilePicture?: string;
  ridePin?: RidePinSetting;
}

/**
 * The ride_pin setting of the user `userIdExpr` names (an SQL expression of the caller's statement,
 * never input), as SQL: 'off' for no such user, as findRidePin answers (RidePinSettingsPort).
 */
export function ridePinSettingSql(userIdExpr: string): string {
  return `coalesce((SELECT users.ride_pin FROM users WHERE users.id = ${userIdExpr}), 'off')`;
}

@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly repo: Repository<UserEntity>) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.repo.manager;
  }

  runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(work);
  }

  /** The few columns every authenticated request needs, by primary key. */
  async findAuthState(id: number): Promise<UserAuthState | undefined> {
    return (await this.findAuthStates([id])).get(id);
  }

  /** findAuthState for many users in one round trip (a turn's worth of cache misses). */
  async findAuthStates(ids: number[]): Promise<Map<number, UserAuthState>> {
    const rows: Array<{
      id: number;
      role: UserRole;
      operator_role: OperatorRole | null;
      is_active: boolean;
      is_blocked: boolean;
      is_registered: boolean;
      valid_after: number;
    }> = await this.repo.query(
      `SELECT id, role, operator_role, is_active, is_blocked, is_registered,
                COALESCE(extract(epoch FROM tokens_valid_after), 0)::float8 AS valid_after
           FROM users WHERE id = ANY($1::int[])`,
      [ids],
    );
    const states = new Map<number, UserAuthState>();
    for (const row of rows) {
      states.set(row.id, {
        id: row.id,
        role: row.role,
        isActive: row.is_active,
        isBlocked: row.is_blocked,
        isRegistered: row.is_registered,
        tokensValidAfter: row.valid_after,
        operatorRole: row.operator_role,
      });
    }
    return states;
  }

  findById(id: number, manager?: EntityManager): Promise<UserEntity | null> {
    return (manager ? manager.getRepository(UserEntity) : this.repo).findOne({ where: { id } });
  }

  async findPublicById(id: number, manager?: EntityManager): Promise<PublicUserRow | undefined> {
    const rows: PublicUserRow[] = await this.m(manager).query(`SELECT ${PUBLIC_USER_COLUMNS} FROM users WHERE id = $1`, [id]);
    return rows[0];
  }

  /**
   * GET /admin/users: newest first; `query` matches phone, e-mail or name (first, last or both) as
   * a case-insensitive substring, its LIKE wildcards taken literally.
   */
  async findPage(filter: { query?: string; role?: string }, offset: number, limit: number): Promise<{ rows: PublicUserRow[]; total: number }> {
    const pattern = filter.query === undefined ? null : `%${filter.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const where = `($1::text IS NULL OR phone ILIKE $1 OR email ILIKE $1 OR first_name ILIKE $1 OR last_name ILIKE $1
                    OR concat_ws(' ', first_name, last_name) ILIKE $1)
               AND ($2::text IS NULL OR role::text = $2)`;
    const params = [pattern, filter.role ?? null];
    const [rows, count] = await Promise.all([
      this.repo.query(`SELECT ${PUBLIC_USER_COLUMNS} FROM users WHERE ${where} ORDER BY id DESC OFFSET $3 LIMIT $4`, [...params, offset, limit]),
      this.repo.query(`SELECT count(*)::int AS total FROM users WHERE ${where}`, params),
    ]);
    return { rows: rows as PublicUserRow[], total: (count as Array<{ total: number }>)[0]!.total };
  }

  /** The user's row locked for the rest of the transaction, as clients see it. */
  async lockPublicById(id: number, manager: EntityManager): Promise<PublicUserRow | undefined> {
    const rows: PublicUserRow[] = await manager.query(`SELECT ${PUBLIC_USER_COLUMNS} FROM users WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0];
  }

  /** Locks the user's row for the rest of the transaction; the current picture URL comes along. */
  /** The passenger's start-PIN setting (CONTRACT §14); `off` for a user gone. */
  async findRidePin(id: number, manager?: EntityManager): Promise<RidePinSetting> {
    const rows: Array<{ ride_pin: RidePinSetting }> = await this.m(manager).query(`SELECT ride_pin FROM users WHERE id = $1`, [id]);
    return rows[0]?.ride_pin ?? 'off';
  }

  /** The user's emergency contacts and first name (an SOS signs with it); undefined for no such user. */
  async findEmergencyContacts(id: number): Promise<{ firstName: string | null; contacts: Array<{ name: string; phone: string }> } | undefined> {
    const rows = await this.m().query(`SELECT first_name, emergency_contacts FROM users WHERE id = $1`, [id]);
    return rows[0] && { firstName: rows[0].first_name, contacts: rows[0].emergency_contacts };
  }

  /** Replaces the list whole; false for no such user. */
  async setEmergencyContacts(id: number, contacts: Array<{ name: string; phone: string }>): Promise<boolean> {
    const rows = rowsOf(
      await this.m().query(`UPDATE users SET emergency_contacts = $2::jsonb, updated_at = now() WHERE id = $1 RETURNING id`, [id, JSON.stringify(contacts)]),
    );
    return rows.length > 0;
  }

  async lockById(id: number, manager: EntityManager): Promise<{ id: number; email: string | null; profile_picture: string | null } | undefined> {
    const rows = await manager.query(`SELECT id, email, profile_picture FROM users WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0];
  }

  async isEmailHeldByOther(email: string, userId: number, manager?: EntityManager): Promise<boolean> {
    const rows = await this.m(manager).query(`SELECT 1 FROM users WHERE email = $1 AND id <> $2`, [email, userId]);
    return rows.length > 0;
  }

  /** Applies only the supplied fields; a changed e-mail is no longer verified. */
  async updateProfile(id: number, changes: ProfileChanges, manager?: EntityManager): Promise<PublicUserRow | undefined> {
    const rows = rowsOf<PublicUserRow>(
      await this.m(manager).query(
        `UPDATE users SET
         is_email_verified = CASE WHEN $2::varchar IS NOT NULL AND email IS DISTINCT FROM $2 THEN false ELSE is_email_verified END,
         email           = COALESCE($2, email),
         first_name      = COALESCE($3, first_name),
         last_name       = COALESCE($4, last_name),
         profile_picture = COALESCE($5, profile_picture),
         ride_pin        = COALESCE($6, ride_pin),
         updated_at      = now()
       WHERE id = $1
       RETURNING ${PUBLIC_USER_COLUMNS}`,
        [id, changes.email ?? null, changes.firstName ?? null, changes.lastName ?? null, changes.profilePicture ?? null, changes.ridePin ?? null],
      ),
    );
    return rows[0];
  }

  /**
   * Deletes the user. Shared rides keep the other party's record (the foreign keys set this user to
   * NULL); the driver record and idempotency keys go by cascade; the wallet stays, ownerless, for the
   * ledger. The caller has removed the rides that were this user's alone (RidesService).
   */
  async deleteUser(userId: number, manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM users WHERE id = $1`, [userId]);
  }

  /**
   * Blocking also ends the session: the refresh token (and its family) is dropped. Access tokens
   * are refused through is_blocked while the block lasts; an unblock lets them work again (the
   * operator CLI's documented behaviour), so no tokens_valid_after here.
   */
  async setBlocked(userId: number, blocked: boolean, manager?: EntityManager): Promise<PublicUserRow | undefined> {
    const rows = rowsOf<PublicUserRow>(
      await this.m(manager).query(
        `UPDATE users SET is_blocked = $2,
              refresh_token_hash = CASE WHEN $2 THEN NULL ELSE refresh_token_hash END,
              refresh_token_family = CASE WHEN $2 THEN NULL ELSE refresh_token_family END,
              updated_at = now()
        WHERE id = $1
        RETURNING ${PUBLIC_USER_COLUMNS}`,
        [userId, blocked],
      ),
    );
    return rows[0];
  }

  /** A driver's stars: sum, count and the average from them (their CHECK holds it), as a part of the `rate` command's statement. */
  addRatingSql(userId: string, stars: string): string {
    return `UPDATE users SET ${addRatingSql(stars)} WHERE id = ${userId} RETURNING rating`;
  }

  /** Push tokens (from register or login) of the users that have one and may still be reached. */
  async findPushTokens(ids: number[]): Promise<Array<{ id: number; device_token: string }>> {
    return this.repo.query(`SELECT id, device_token FROM users WHERE id = ANY($1::int[]) AND device_token IS NOT NULL AND is_active AND NOT is_blocked`, [ids]);
  }

  async findOperatorIds(): Promise<number[]> {
    const rows: Array<{ id: number }> = await this.repo.query(`SELECT id FROM users WHERE role = 'operator' AND is_active AND NOT is_blocked`);
    return rows.map((row) => row.id);
  }

  /** Only the dead token: a newer one the user registered meanwhile stays. */
  async clearPushToken(id: number, token: string): Promise<void> {
    await this.repo.query(`UPDATE users SET device_token = NULL WHERE id = $1 AND device_token = $2`, [id, token]);
  }
}
