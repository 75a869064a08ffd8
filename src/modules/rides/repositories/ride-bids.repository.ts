import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../../../common/database/sql-results';
import { BID_VIEW_COLUMNS, BID_VIEW_FROM, BID_VIEW_ORDER, BidViewRow } from '../views/bid-view';

/**
 * The rides module's window on the bids table. The bids module owns bid writes (submit, accept),
 * but a ride's own transitions (cancel, expiry) must withdraw its live bids in the same
 * transaction, and the rides module cannot import the bids module (bids imports rides), so the
 * cascade and the bid read model live here.
 */
@Injectable()
export class RideBidsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async listForRide(rideId: string, onlyPending: boolean, manager?: EntityManager): Promise<BidViewRow[]> {
    const pending = onlyPending ? ` AND b.status = 'pending'` : '';
    return this.m(manager).query(`SELECT ${BID_VIEW_COLUMNS} ${BID_VIEW_FROM} WHERE b.ride_id = $1${pending} ${BID_VIEW_ORDER}`, [
      rideId,
    ]);
  }

  async findView(bidId: string, manager?: EntityManager): Promise<BidViewRow | undefined> {
    const rows: BidViewRow[] = await this.m(manager).query(`SELECT ${BID_VIEW_COLUMNS} ${BID_VIEW_FROM} WHERE b.id = $1`, [bidId]);
    return rows[0];
  }

  /** Withdraws the pending bids of rides that were cancelled or expired; returns who had bid, per ride. */
  async withdrawPendingForRides(rideIds: string[], manager: EntityManager): Promise<Map<string, number[]>> {
    const byRide = new Map<string, number[]>(rideIds.map((id) => [id, []]));
    if (rideIds.length === 0) return byRide;
    const rows = rowsOf<{ ride_id: string; driver_id: number }>(
      await manager.query(
      `UPDATE bids SET status = 'withdrawn', updated_at = now()
        WHERE ride_id = ANY($1::uuid[]) AND status = 'pending'
        RETURNING ride_id, driver_id`,
        [rideIds],
      ),
    );
    for (const row of rows) byRide.get(row.ride_id)?.push(row.driver_id);
    return byRide;
  }
}
