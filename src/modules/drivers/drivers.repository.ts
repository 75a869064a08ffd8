import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { GeoPoint } from '../../common/events/domain-events';
import { sqlHaversineKm } from '../rides/fare/geo';
import { rowsOf } from '../rides/repositories/sql-result';

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
  rating: number;
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

const COLUMNS = `user_id, status, is_online, vehicle_category_id, vehicle_make, vehicle_model, vehicle_plate, vehicle_color,
  vehicle_year, license_number, rating, last_latitude, last_longitude, last_heading, last_speed, last_accuracy, last_location_at`;

const KM_PER_DEGREE = 111.195;

@Injectable()
export class DriversRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async findByUserId(userId: number, manager?: EntityManager): Promise<DriverRow | undefined> {
    const rows: DriverRow[] = await this.m(manager).query(`SELECT ${COLUMNS} FROM drivers WHERE user_id = $1`, [userId]);
    return rows[0];
  }

  /** Locks the driver's row for the rest of the caller's transaction (accepting a bid). */
  async lockByUserId(userId: number, manager: EntityManager): Promise<DriverRow | undefined> {
    const rows: DriverRow[] = await manager.query(`SELECT ${COLUMNS} FROM drivers WHERE user_id = $1 FOR UPDATE`, [userId]);
    return rows[0];
  }

  async updateProfile(userId: number, changes: DriverProfileChanges): Promise<DriverRow | undefined> {
    const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
    const sets = entries.map(([column], i) => `${column} = $${i + 2}`);
    sets.push('updated_at = now()');
    const rows = rowsOf<DriverRow>(
      await this.dataSource.query(`UPDATE drivers SET ${sets.join(', ')} WHERE user_id = $1 RETURNING ${COLUMNS}`, [
        userId,
        ...entries.map(([, v]) => v),
      ]),
    );
    return rows[0];
  }

  async setOnline(userId: number, isOnline: boolean): Promise<DriverRow | undefined> {
    const rows = rowsOf<DriverRow>(
      await this.dataSource.query(
        `UPDATE drivers SET is_online = $2, updated_at = now() WHERE user_id = $1 RETURNING ${COLUMNS}`,
        [userId, isOnline],
      ),
    );
    return rows[0];
  }

  /** Anything but approved also takes the driver offline. */
  async setApprovalStatus(userId: number, status: DriverApprovalStatus): Promise<DriverRow | undefined> {
    const rows = rowsOf<DriverRow>(
      await this.dataSource.query(
        `UPDATE drivers SET status = $2, is_online = (is_online AND $2::varchar = 'approved'), updated_at = now()
          WHERE user_id = $1 RETURNING ${COLUMNS}`,
        [userId, status],
      ),
    );
    return rows[0];
  }

  /**
   * Approved, online drivers serving the category (or every category) whose last position is within
   * the radius. The partial index drivers_online_idx narrows to online approved drivers of the
   * category; the location columns are deliberately unindexed (heartbeats must stay HOT updates),
   * so a latitude band and then the exact haversine filter those.
   */
  async findOnlineIdsNear(vehicleCategoryId: number, point: GeoPoint, radiusKm: number): Promise<number[]> {
    const band = radiusKm / KM_PER_DEGREE;
    const rows: Array<{ user_id: number }> = await this.dataSource.query(
      `SELECT user_id FROM drivers
        WHERE is_online AND status = 'approved'
          AND (vehicle_category_id = $1 OR vehicle_category_id IS NULL)
          AND last_latitude BETWEEN $2::float8 - $5::float8 AND $2::float8 + $5::float8
          AND ${sqlHaversineKm('$2::float8', '$3::float8', 'last_latitude', 'last_longitude')} <= $4::float8`,
      [vehicleCategoryId, point.latitude, point.longitude, radiusKm, band],
    );
    return rows.map((r) => r.user_id);
  }

  /** Writes many heartbeats in one statement; the rows' indexed columns are untouched (HOT update). */
  async writeLocations(batch: PendingLocation[]): Promise<void> {
    if (batch.length === 0) return;
    const params: unknown[] = [];
    const tuples = batch.map((p, i) => {
      params.push(p.driverId, p.latitude, p.longitude, p.heading, p.speed, p.accuracy, p.at);
      const o = i * 7;
      return `($${o + 1}::int, $${o + 2}::float8, $${o + 3}::float8, $${o + 4}::float8, $${o + 5}::float8, $${o + 6}::float8, $${o + 7}::timestamptz)`;
    });
    await this.dataSource.query(
      `UPDATE drivers d
          SET last_latitude = v.lat, last_longitude = v.lng, last_heading = v.heading, last_speed = v.speed,
              last_accuracy = v.accuracy, last_location_at = v.at
         FROM (VALUES ${tuples.join(', ')}) AS v(user_id, lat, lng, heading, speed, accuracy, at)
        WHERE d.user_id = v.user_id AND (d.last_location_at IS NULL OR d.last_location_at <= v.at)`,
      params,
    );
  }
}
