import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PaymentMethod } from './ride-view';

export interface EarningsTotals {
  today: number;
  this_week: number;
  this_month: number;
  total: number;
  tips: number;
  rides_count: number;
}

export interface EarningItemRow {
  ride_id: string;
  ride_code: string;
  method: PaymentMethod;
  fare_minor: number;
  commission_minor: number;
  driver_earning_minor: number;
  tip_minor: number | null;
  currency: string;
  paid_at: Date;
  completed_at: Date | null;
  pickup_address: string;
  dropoff_address: string;
}

/** Driver earnings from ride_payments (one row per completed ride) and the tips on those rides. Periods are calendar periods in UTC (weeks start Monday). */
@Injectable()
export class RidePaymentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Each period counts the earnings paid in it and the tips received in it (a tip may come the day after its ride). */
  async totalsForDriver(driverId: number): Promise<EarningsTotals> {
    const since = (unit: string) => `date_trunc('${unit}', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
    const both = (unit: string) =>
      `coalesce(sum(p.driver_earning_minor) FILTER (WHERE p.created_at >= ${since(unit)}), 0)
       + coalesce(sum(r.tip_minor) FILTER (WHERE r.tipped_at >= ${since(unit)}), 0)`;
    const rows: EarningsTotals[] = await this.dataSource.query(
      `SELECT
         (${both('day')})::bigint AS today,
         (${both('week')})::bigint AS this_week,
         (${both('month')})::bigint AS this_month,
         (coalesce(sum(p.driver_earning_minor), 0) + coalesce(sum(r.tip_minor), 0))::bigint AS total,
         coalesce(sum(r.tip_minor), 0)::bigint AS tips,
         count(*)::int AS rides_count
       FROM ride_payments p JOIN rides r ON r.id = p.ride_id WHERE p.driver_id = $1`,
      [driverId],
    );
    return rows[0]!;
  }

  listForDriver(driverId: number, offset: number, limit: number): Promise<EarningItemRow[]> {
    return this.dataSource.query(
      `SELECT p.ride_id, r.ride_code, p.method, p.fare_minor, p.commission_minor, p.driver_earning_minor, r.tip_minor, p.currency,
              p.created_at AS paid_at, r.completed_at, r.pickup_address, r.dropoff_address
         FROM ride_payments p JOIN rides r ON r.id = p.ride_id
        WHERE p.driver_id = $1
        ORDER BY p.created_at DESC, p.ride_id DESC OFFSET ${offset} LIMIT ${limit}`,
      [driverId],
    );
  }
}
