import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { rowsOf } from '../rides/repositories/sql-result';

export interface BidRow {
  id: string;
  ride_id: string;
  driver_id: number;
  amount_minor: number;
  eta_minutes: number;
  status: 'pending' | 'accepted' | 'rejected' | 'withdrawn';
}

const COLUMNS = `id, ride_id, driver_id, amount_minor, eta_minutes, status`;

/** Bid writes, always inside the caller's transaction (which holds the ride's lock). */
@Injectable()
export class BidsRepository {
  /**
   * One live bid per driver per ride: a second bid replaces amount and ETA while the first is still
   * pending. undefined when the driver's bid on this ride is no longer pending.
   */
  async upsertPending(rideId: string, driverId: number, amountMinor: number, etaMinutes: number, manager: EntityManager): Promise<BidRow | undefined> {
    const rows: BidRow[] = await manager.query(
      `INSERT INTO bids (id, ride_id, driver_id, amount_minor, eta_minutes) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (ride_id, driver_id) DO UPDATE
         SET amount_minor = EXCLUDED.amount_minor, eta_minutes = EXCLUDED.eta_minutes, updated_at = now()
         WHERE bids.status = 'pending'
       RETURNING ${COLUMNS}`,
      [randomUUID(), rideId, driverId, amountMinor, etaMinutes],
    );
    return rows[0];
  }

  async findOnRide(bidId: string, rideId: string, manager: EntityManager): Promise<BidRow | undefined> {
    const rows: BidRow[] = await manager.query(`SELECT ${COLUMNS} FROM bids WHERE id = $1 AND ride_id = $2`, [bidId, rideId]);
    return rows[0];
  }

  async lockOnRide(bidId: string, rideId: string, manager: EntityManager): Promise<BidRow | undefined> {
    const rows: BidRow[] = await manager.query(`SELECT ${COLUMNS} FROM bids WHERE id = $1 AND ride_id = $2 FOR UPDATE`, [bidId, rideId]);
    return rows[0];
  }

  /**
   * The winner is accepted, the ride's other pending bids rejected (returns their drivers), and the
   * winner's pending bids on other rides withdrawn (the driver is busy now).
   */
  async settleAcceptance(rideId: string, bidId: string, driverId: number, manager: EntityManager): Promise<number[]> {
    await manager.query(`UPDATE bids SET status = 'accepted', updated_at = now() WHERE id = $1`, [bidId]);
    const rejected = rowsOf<{ driver_id: number }>(
      await manager.query(
        `UPDATE bids SET status = 'rejected', updated_at = now()
          WHERE ride_id = $1 AND id <> $2 AND status = 'pending' RETURNING driver_id`,
        [rideId, bidId],
      ),
    );
    await manager.query(
      `UPDATE bids SET status = 'withdrawn', updated_at = now() WHERE driver_id = $1 AND ride_id <> $2 AND status = 'pending'`,
      [driverId, rideId],
    );
    return rejected.map((r) => r.driver_id);
  }
}
