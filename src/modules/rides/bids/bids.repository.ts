import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

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

  /**
   * Every bid row an acceptance of the driver's bid on this ride changes, locked in one statement in
   * id order: the ride's pending bids and the driver's pending bids on other rides. Two acceptances
   * that share bid rows (two drivers bidding on two rides, both accepted at once) take them in the
   * same order, so one waits for the other instead of the two deadlocking.
   */
  async lockPendingForAcceptance(rideId: string, driverId: number, manager: EntityManager): Promise<BidRow[]> {
    return manager.query(
      `SELECT ${COLUMNS} FROM bids WHERE (ride_id = $1 OR driver_id = $2) AND status = 'pending' ORDER BY id FOR UPDATE`,
      [rideId, driverId],
    );
  }

  /**
   * Settles the rows locked by lockPendingForAcceptance: the winner accepted, the ride's other bids
   * rejected (their drivers are returned), the winner's bids on other rides withdrawn (busy now).
   */
  async settleAcceptance(rideId: string, winner: BidRow, locked: BidRow[], manager: EntityManager): Promise<number[]> {
    await manager.query(
      `UPDATE bids SET updated_at = now(),
              status = CASE WHEN id = $1 THEN 'accepted' WHEN ride_id = $2 THEN 'rejected' ELSE 'withdrawn' END
        WHERE id = ANY($3::uuid[])`,
      [winner.id, rideId, locked.map((b) => b.id)],
    );
    return locked.filter((b) => b.ride_id === rideId && b.id !== winner.id).map((b) => b.driver_id);
  }
}
