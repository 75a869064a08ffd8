import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ActorRole } from '../transitions/ride-writes.repository';
import { RIDE_PUBLIC_COLUMNS, RIDE_VIEW_FROM, RideViewRow } from '../read-models/ride-view';

/** The ride's payment status as SQL (CONTRACT §12: null for cash and wallet rides). */
const PAYMENT_STATUS_SQL = 'r.payment_status';

export interface AdminRideFilter {
  status?: string;
  paymentStatus?: string;
  passengerId?: number;
  driverId?: number;
}

export interface RideEventRow {
  to_status: string;
  actor_role: ActorRole;
  actor_user_id: number | null;
  reason: string | null;
  created_at: Date;
}

/** Operators' reads of rides: any ride, filtered, and a ride's history (ride_events). */
@Injectable()
export class AdminRidesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Newest first. */
  async findPage(filter: AdminRideFilter, offset: number, limit: number): Promise<{ rows: RideViewRow[]; total: number }> {
    const where = `($1::varchar IS NULL OR r.status = $1) AND ($2::varchar IS NULL OR ${PAYMENT_STATUS_SQL} = $2)
      AND ($3::int IS NULL OR r.passenger_id = $3) AND ($4::int IS NULL OR r.driver_id = $4)`;
    const params = [filter.status ?? null, filter.paymentStatus ?? null, filter.passengerId ?? null, filter.driverId ?? null];
    const [rows, count] = await Promise.all([
      this.dataSource.query(`SELECT ${RIDE_PUBLIC_COLUMNS} ${RIDE_VIEW_FROM} WHERE ${where} ORDER BY r.created_at DESC, r.id DESC LIMIT $5 OFFSET $6`, [
        ...params,
        limit,
        offset,
      ]) as Promise<RideViewRow[]>,
      this.dataSource.query(`SELECT count(*)::int AS total FROM rides r WHERE ${where}`, params) as Promise<Array<{ total: number }>>,
    ]);
    return { rows, total: count[0]?.total ?? 0 };
  }

  /** Oldest first, in the order they were written. */
  findEvents(rideId: string): Promise<RideEventRow[]> {
    return this.dataSource.query(`SELECT to_status, actor_role, actor_user_id, reason, created_at FROM ride_events WHERE ride_id = $1 ORDER BY id`, [rideId]);
  }
}
