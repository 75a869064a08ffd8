import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../../../common/database/sql-results';
import { ASSIGNED_STATUSES, sqlStatusList } from '../ride-status';
import { BID_VIEW_COLUMNS, BID_VIEW_FROM, BID_VIEW_JOINS, BID_VIEW_ORDER, BidViewRow } from './bid-view';

const ASSIGNED = sqlStatusList(ASSIGNED_STATUSES);

export interface BidRow {
  id: string;
  ride_id: string;
  driver_id: number;
  amount_minor: number;
  eta_minutes: number;
  status: 'pending' | 'accepted' | 'rejected' | 'withdrawn';
}

const COLUMNS = `id, ride_id, driver_id, amount_minor, eta_minutes, status`;

/**
 * The bids table, the marketplace's only window on it: bid writes always inside the caller's
 * transaction (which holds the ride's lock), and the bid read model.
 */
/**
 * upsertPending as the `act` of a one-statement bid (RideTransitionsService): written only where
 * `allowed` (the table's rule over the locked ride `l`), the driver's category serves the ride
 * and the driver is on no ride; `act` is always one row: `driver_busy`, and the bid's view
 * columns (null when nothing was written: refused, or the driver's bid is no longer pending).
 */
export function upsertPendingWhere(bid: { driverId: number; amountMinor: number; etaMinutes: number; categoryId: number | null }) {
  return (allowed: string, param: (value: unknown) => string): string => {
    const driver = param(bid.driverId);
    const category = param(bid.categoryId);
    return `busy AS (SELECT EXISTS (SELECT 1 FROM rides WHERE driver_id = ${driver}::int AND status IN ${ASSIGNED}) AS busy),
      up AS (INSERT INTO bids AS b (id, ride_id, driver_id, amount_minor, eta_minutes)
        SELECT ${param(randomUUID())}::uuid, l.id, ${driver}::int, ${param(bid.amountMinor)}::int, ${param(bid.etaMinutes)}::int FROM l
         WHERE ${allowed} AND (${category}::int IS NULL OR ${category}::int = l.vehicle_category_id) AND NOT (SELECT busy FROM busy)
        ON CONFLICT (ride_id, driver_id) DO UPDATE
          SET amount_minor = EXCLUDED.amount_minor, eta_minutes = EXCLUDED.eta_minutes, updated_at = now()
          WHERE b.status = 'pending'
        RETURNING b.*),
      act AS (SELECT (SELECT busy FROM busy) AS driver_busy, v.* FROM (SELECT 1) one
        LEFT JOIN (SELECT ${BID_VIEW_COLUMNS} FROM up b JOIN l r ON r.id = b.ride_id ${BID_VIEW_JOINS}) v ON true)`;
  };
}

/** What the one-statement accept judges beside the ride, each as SQL its owner states (ports, services). */
export interface AcceptanceRules {
  /** The bid's driver is approved (drivers). */
  approvedDriver(driverIdExpr: string): string;
  /** The passenger's wallet covers the amount (wallets). */
  walletCovers(userIdExpr: string, amountExpr: string): string;
  /** The passenger's ride_pin setting (users). */
  pinSetting(userIdExpr: string): string;
}

/**
 * The source row (`src`) of a one-statement accept of `bidId` on the locked ride `l`: the bid rows the
 * acceptance settles are locked in id order as lockPendingForAcceptance locks them, after the ride
 * (each depends on `l`); `src` is the bid if it is among them (pending on this ride), with `ready`:
 * its driver approved and on no live ride, and the ride paid for (cash; a card hold of `holdMinor`
 * covering the bid; a wallet covering it), and `start_pin`: `pin` when the passenger's setting is
 * one of `pinSettings` (those that need a PIN now), and `settles`: the locked bids' ids.
 */
export function acceptanceSource(accept: { bidId: string; holdMinor: number | null; pinSettings: readonly string[]; pin: string }, rules: AcceptanceRules) {
  return (param: (value: unknown) => string): string => {
    const bidId = param(accept.bidId);
    return `WITH locked AS (
        SELECT b.id, b.ride_id, b.driver_id, b.amount_minor FROM bids b
         WHERE (b.ride_id = (SELECT id FROM l)
                OR b.driver_id = (SELECT w.driver_id FROM bids w WHERE w.id = ${bidId}::uuid AND w.ride_id = (SELECT id FROM l)))
           AND b.status = 'pending'
         ORDER BY b.id FOR UPDATE
      )
      SELECT a.id, a.driver_id, a.amount_minor, ARRAY(SELECT id FROM locked) AS settles,
             CASE WHEN ${rules.pinSetting('l.passenger_id')}::text = ANY(${param(accept.pinSettings)}::text[]) THEN ${param(accept.pin)}::text END AS start_pin,
             ${rules.approvedDriver('a.driver_id')}
               AND NOT EXISTS (SELECT 1 FROM rides busy WHERE busy.driver_id = a.driver_id AND busy.status IN ${ASSIGNED})
               AND CASE l.payment_method WHEN 'cash' THEN true
                     WHEN 'card' THEN coalesce(${param(accept.holdMinor)}::bigint >= a.amount_minor, false)
                     WHEN 'wallet' THEN ${rules.walletCovers('l.passenger_id', 'a.amount_minor')}
                     ELSE false END AS ready
        FROM locked a JOIN l ON a.ride_id = l.id WHERE a.id = ${bidId}::uuid`;
  };
}

/**
 * settleAcceptance as the `also` of a one-statement accept: once the ride changed, the bids `src`
 * locked are settled (the accepted bid accepted, the ride's others rejected, the driver's bids on
 * other rides withdrawn); returns each with its driver and new status.
 */
export function settleAcceptanceOfChanged(): string {
  return `UPDATE bids b SET updated_at = now(),
            status = CASE WHEN b.id = c.accepted_bid_id THEN 'accepted' WHEN b.ride_id = c.id THEN 'rejected' ELSE 'withdrawn' END
       FROM changed c WHERE b.id IN (SELECT unnest(settles) FROM src)
     RETURNING b.id, b.driver_id, b.status`;
}

@Injectable()
export class BidsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async listForRide(rideId: string, onlyPending: boolean, manager?: EntityManager): Promise<BidViewRow[]> {
    const pending = onlyPending ? ` AND b.status = 'pending'` : '';
    return this.m(manager).query(`SELECT ${BID_VIEW_COLUMNS} ${BID_VIEW_FROM} WHERE b.ride_id = $1${pending} ${BID_VIEW_ORDER}`, [rideId]);
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

  /** For an accept's prepare (unlocked, a hint): the ride's passenger, payment method and status, and the bid if it is this ride's. */
  async findAcceptance(
    rideId: string,
    bidId: string,
  ): Promise<{ passenger_id: number | null; payment_method: string; status: string; bid_status: string | null; amount_minor: number | null } | undefined> {
    const rows = rowsOf<{ passenger_id: number | null; payment_method: string; status: string; bid_status: string | null; amount_minor: number | null }>(
      await this.m().query(
        `SELECT r.passenger_id, r.payment_method, r.status, b.status AS bid_status, b.amount_minor
           FROM rides r LEFT JOIN bids b ON b.id = $2 AND b.ride_id = r.id WHERE r.id = $1`,
        [rideId, bidId],
      ),
    );
    return rows[0];
  }

  async findOnRide(bidId: string, rideId: string, manager?: EntityManager): Promise<BidRow | undefined> {
    const rows: BidRow[] = await this.m(manager).query(`SELECT ${COLUMNS} FROM bids WHERE id = $1 AND ride_id = $2`, [bidId, rideId]);
    return rows[0];
  }

  /**
   * Every bid row an acceptance of the driver's bid on this ride changes, locked in one statement in
   * id order: the ride's pending bids and the driver's pending bids on other rides. Two acceptances
   * that share bid rows (two drivers bidding on two rides, both accepted at once) take them in the
   * same order, so one waits for the other instead of the two deadlocking.
   */
  async lockPendingForAcceptance(rideId: string, driverId: number, manager: EntityManager): Promise<BidRow[]> {
    return manager.query(`SELECT ${COLUMNS} FROM bids WHERE (ride_id = $1 OR driver_id = $2) AND status = 'pending' ORDER BY id FOR UPDATE`, [
      rideId,
      driverId,
    ]);
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
