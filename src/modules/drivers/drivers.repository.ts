import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { addRatingSql } from '../../common/database/rating-average';
import { rowsOf } from '../../common/database/sql-results';

export type DriverApprovalStatus = 'pending' | 'approved' | 'rejected' | 'suspended';

export interface DriverRow {
  user_id: number;
  status: DriverApprovalStatus;
  is_online: boolean;
  vehicle_category_id: number | null;
  vehicle_make: string | null;
  vehicle_model: string | null;
  vehicle_plate: string | null;
  vehicle_color: string | null;
  vehicle_year: number | null;
  license_number: string | null;
  /** numeric: pg returns text; null until rated. */
  rating: string | null;
  ratings_count: number;
  last_latitude: number | null;
  last_longitude: number | null;
  last_heading: number | null;
  last_speed: number | null;
  last_accuracy: number | null;
  last_location_at: Date | null;
}

export interface DriverProfileChanges {
  vehicle_category_id?: number | null;
  vehicle_make?: string;
  vehicle_model?: string;
  vehicle_plate?: string;
  vehicle_color?: string;
  vehicle_year?: number;
  license_number?: string;
}

export interface PendingLocation {
  driverId: number;
  latitude: number;
  longitude: number;
  heading: number | null;
  speed: number | null;
  accuracy: number | null;
  at: Date;
}

export interface MatchableDriverRow {
  user_id: number;
  vehicle_category_id: number | null;
  last_latitude: number | null;
  last_longitude: number | null;
  last_location_at: Date | null;
}

const COLUMNS = `user_id, status, is_online, vehicle_category_id, vehicle_make, vehicle_model, vehicle_plate, vehicle_color,
  vehicle_year, license_number, rating, ratings_count, last_latitude, last_longitude, last_heading, last_speed, last_accuracy, last_location_at`;

/**
 * Whether the user `userIdExpr` (an SQL expression of the caller's statement, never input) is an
 * approved driver, as SQL: the approval rule for a statement of another module that must judge it
 * in the same round trip (BiddingDriversPort: accepting a bid).
 */
export function approvedDriverSql(userIdExpr: string): string {
  return `EXISTS (SELECT 1 FROM drivers WHERE drivers.user_id = ${userIdExpr} AND drivers.status = 'approved')`;
}

@Injectable()
export class DriversRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async findByUserId(userId: number, manager?: EntityManager): Promise<DriverRow | undefined> {
    const rows: DriverRow[] = await this.m(manager).query(`SELECT ${COLUMNS} FROM drivers WHERE user_id = $1`, [userId]);
    return rows[0];
  }

  /** Several drivers' rows in one statement (cold-cache bursts of nearby), keyed by user id. */
  async findByUserIds(userIds: number[]): Promise<Map<number, DriverRow>> {
    const rows: DriverRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM drivers WHERE user_id = ANY($1::int[])`, [userIds]);
    return new Map(rows.map((row) => [row.user_id, row]));
  }

  /** The first row of a new driver; a second registration attempt leaves the existing row alone. */
  async insertInitial(userId: number, status: DriverApprovalStatus, manager?: EntityManager): Promise<void> {
    await this.m(manager).query(`INSERT INTO drivers (user_id, status) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING`, [userId, status]);
  }

  async updateProfile(userId: number, changes: DriverProfileChanges): Promise<DriverRow | undefined> {
    const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
    const sets = entries.map(([column], i) => `${column} = $${i + 2}`);
    sets.push('updated_at = now()');
    const rows = rowsOf<DriverRow>(
      await this.dataSource.query(`UPDATE drivers SET ${sets.join(', ')} WHERE user_id = $1 RETURNING ${COLUMNS}`, [userId, ...entries.map(([, v]) => v)]),
    );
    return rows[0];
  }

  async setOnline(userId: number, isOnline: boolean): Promise<DriverRow | undefined> {
    const rows = rowsOf<DriverRow>(
      await this.dataSource.query(`UPDATE drivers SET is_online = $2, updated_at = now() WHERE user_id = $1 RETURNING ${COLUMNS}`, [userId, isOnline]),
    );
    return rows[0];
  }

  /** The driver's row, locked for the rest of the transaction. */
  async lockByUserId(userId: number, manager: EntityManager): Promise<DriverRow | undefined> {
    const rows: DriverRow[] = await manager.query(`SELECT ${COLUMNS} FROM drivers WHERE user_id = $1 FOR UPDATE`, [userId]);
    return rows[0];
  }

  /** Anything but approved also takes the driver offline. */
  async setApprovalStatus(userId: number, status: DriverApprovalStatus, manager?: EntityManager): Promise<DriverRow | undefined> {
    const rows = rowsOf<DriverRow>(
      await this.m(manager).query(
        `UPDATE drivers SET status = $2, is_online = (is_online AND $2::varchar = 'approved'), updated_at = now()
          WHERE user_id = $1 RETURNING ${COLUMNS}`,
        [userId, status],
      ),
    );
    return rows[0];
  }

  /** GET /admin/drivers: newest first, optionally of one approval status. */
  async findPage(status: DriverApprovalStatus | undefined, offset: number, limit: number): Promise<{ rows: DriverRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.dataSource.query(`SELECT ${COLUMNS} FROM drivers WHERE ($1::varchar IS NULL OR status = $1) ORDER BY user_id DESC OFFSET $2 LIMIT $3`, [
        status ?? null,
        offset,
        limit,
      ]),
      this.dataSource.query(`SELECT count(*)::int AS total FROM drivers WHERE ($1::varchar IS NULL OR status = $1)`, [status ?? null]),
    ]);
    return { rows: rows as DriverRow[], total: (count as Array<{ total: number }>)[0]!.total };
  }

  /** A passenger's stars: sum, count and the average from them (their CHECK holds it), as a part of the `rate` command's statement. */
  addRatingSql(userId: string, stars: string): string {
    return `UPDATE drivers SET ${addRatingSql(stars)} WHERE user_id = ${userId} RETURNING rating`;
  }

  /**
   * Every online, approved driver with the category and the position last flushed (the matcher's
   * start-up and reconciliation): one scan of the drivers table, however many rides there are.
   */
  async findOnlineApproved(): Promise<MatchableDriverRow[]> {
    return this.dataSource.query(
      `SELECT user_id, vehicle_category_id, last_latitude, last_longitude, last_location_at
         FROM drivers WHERE is_online AND status = 'approved'`,
    );
  }

  /**
   * Writes one chunk of heartbeats (the caller keeps chunks small and sorted by id). The rows are
   * locked in user_id order first, so two instances writing overlapping chunks wait for each other
   * instead of deadlocking; the UPDATE alone would lock in whatever order its plan visits rows. The
   * rows' indexed columns are untouched (HOT update).
   */
  async writeLocations(chunk: PendingLocation[]): Promise<void> {
    if (chunk.length === 0) return;
    const ids = chunk.map((p) => p.driverId);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT 1 FROM drivers WHERE user_id = ANY($1::int[]) ORDER BY user_id FOR NO KEY UPDATE`, [ids]);
      await manager.query(
        `UPDATE drivers d
            SET last_latitude = v.lat, last_longitude = v.lng, last_heading = v.heading, last_speed = v.speed,
                last_accuracy = v.accuracy, last_location_at = v.at
           FROM unnest($1::int[], $2::float8[], $3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::timestamptz[])
                AS v(user_id, lat, lng, heading, speed, accuracy, at)
          WHERE d.user_id = v.user_id AND (d.last_location_at IS NULL OR d.last_location_at <= v.at)`,
        [
          ids,
          chunk.map((p) => p.latitude),
          chunk.map((p) => p.longitude),
          chunk.map((p) => p.heading),
          chunk.map((p) => p.speed),
          chunk.map((p) => p.accuracy),
          chunk.map((p) => p.at.toISOString()),
        ],
      );
    });
  }
}
