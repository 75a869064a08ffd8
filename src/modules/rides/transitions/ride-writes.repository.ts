import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { FareEstimate } from '../../pricing/fare-estimate';
import { rowsOf } from '../../../common/database/sql-results';

import type { RideStatus } from '../ride-status';
import type { PaymentStatus } from '../read-models/ride-view';
import { type LockedRide, lockedColumns } from './locked-ride';
import { RideStamp, sqlAllowing, SweepCommandType, ruleOf } from './ride-transitions';

export type { RideStatus };
export { type LockedRide, lockedColumns, lockedOf } from './locked-ride';
export type ActorRole = 'passenger' | 'driver' | 'system' | 'operator';

export interface NewRide {
  id: string;
  rideCode: string;
  rideType: string;
  passengerId: number;
  vehicleCategoryId: number;
  pickup: { address: string; latitude: number; longitude: number };
  dropoff: { address: string; latitude: number; longitude: number };
  returnLocation: { address: string; latitude: number; longitude: number } | null;
  passengerCount: number;
  children: number;
  paymentMethod: string;
  durationMinutes: number | null;
  endScheduledAt: string | null;
  returnScheduledAt: string | null;
  promoCode: string | null;
  estimate: FareEstimate;
  /** The passenger's own price (minor units), null when none. */
  offeredFareMinor: number | null;
  currency: string;
  ttlMinutes: number;
  /** Ride later: the pickup time, and when the ride is to be dispatched (null for a ride now). */
  pickupAt: string | null;
  dispatchAt: string | null;
}

/** Columns a command writes beside the status (the table's stamp is set by the change itself). */
export interface RideColumns {
  driver_id?: number;
  accepted_bid_id?: string;
  fare_minor?: number;
  cancelled_by?: 'passenger' | 'driver' | 'operator';
  cancel_reason?: string | null;
  start_pin?: string;
  payment_status?: PaymentStatus;
  cancellation_fee_minor?: number;
  /** expires_at becomes now() plus this (a dispatched ride's request starts its time to live). */
  expires_in_minutes?: number;
}

const LOCKED_COLUMNS = lockedColumns();

export interface RideEventInput {
  rideId: string;
  from: RideStatus | null;
  to: RideStatus;
  actorUserId: number | null;
  actorRole: ActorRole;
  reason?: string | null;
}

/** The columns of RideColumns as SQL assignments of parameter `p` (only these ever reach the statement). */
export const COLUMN_SQL: Record<keyof RideColumns, (p: string) => string> = {
  driver_id: (p) => `driver_id = ${p}`,
  accepted_bid_id: (p) => `accepted_bid_id = ${p}`,
  fare_minor: (p) => `fare_minor = ${p}`,
  cancelled_by: (p) => `cancelled_by = ${p}`,
  cancel_reason: (p) => `cancel_reason = ${p}`,
  start_pin: (p) => `start_pin = ${p}`,
  payment_status: (p) => `payment_status = ${p}`,
  cancellation_fee_minor: (p) => `cancellation_fee_minor = ${p}`,
  expires_in_minutes: (p) => `expires_at = now() + make_interval(mins => ${p}::int)`,
};

/** The key space of pg_advisory_xact_lock(key, passenger id) taken by bookings for later. */
const SCHEDULE_LOCK_KEY = 1_763_800_013;

const TRANSACTION_ATTEMPTS = 3;
/** deadlock_detected, serialization_failure: the transaction did nothing and may simply run again. */
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);

function isUniqueViolation(err: unknown): boolean {
  return err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23505';
}

function isRetryableConflict(err: unknown): boolean {
  const code = err instanceof QueryFailedError ? (err.driverError as { code?: string }).code : undefined;
  return code !== undefined && RETRYABLE_SQLSTATES.has(code);
}

/**
 * The completion payment row of the ride a step statement just changed (`changed`), as that
 * statement's `also` CTE: the fare, the platform's commission (percentOf's rounding, from the
 * percentage in basis points) and the driver's earning; no row when the ride was already paid
 * (primary key), so exactly once per ride.
 */
export function paymentOfChanged(commissionPercent: number) {
  return (param: (value: unknown) => string): string => {
    const bp = param(Math.round(commissionPercent * 100));
    const commission = `((coalesce(c.fare_minor, 0)::bigint * ${bp}::int + 5000) / 10000)`;
    return `INSERT INTO ride_payments (ride_id, driver_id, method, fare_minor, commission_minor, driver_earning_minor, currency)
      SELECT c.id, c.driver_id, c.payment_method, coalesce(c.fare_minor, 0), ${commission}, coalesce(c.fare_minor, 0) - ${commission}, trim(c.currency)
        FROM changed c ON CONFLICT (ride_id) DO NOTHING RETURNING ride_id`;
  };
}

/** Write side of rides: inserts, row locks and transitions, always inside the caller's transaction. */
@Injectable()
export class RideWritesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Runs `work` in a transaction, again (at most TRANSACTION_ATTEMPTS times in all) when PostgreSQL
   * aborted it as a deadlock victim or a serialization failure: the lock orders here are chosen so
   * that these should not happen, and a retry turns one that still does into a short wait, not a 500.
   * `work` must only touch the database (it may run more than once).
   */
  async runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.retryingConflicts(() => this.dataSource.transaction(work));
  }

  /** Runs one statement that commits by itself (no BEGIN, no COMMIT), again as runInTransaction would. */
  async runAlone<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.retryingConflicts(() => work(this.dataSource.manager));
  }

  private async retryingConflicts<T>(attemptOnce: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await attemptOnce();
      } catch (err) {
        if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableConflict(err)) throw err;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  }

  /**
   * How many rides the passenger holds booked for later, counted under a transaction-long lock on
   * that passenger's bookings for later: two concurrent bookings at the limit cannot both pass. An
   * advisory lock, not a row lock on the user (another module's table): only these bookings wait.
   */
  async lockScheduledCountOf(passengerId: number, manager: EntityManager): Promise<number> {
    await manager.query(`SELECT pg_advisory_xact_lock($1::int, $2::int)`, [SCHEDULE_LOCK_KEY, passengerId]);
    const rows = rowsOf<{ n: number }>(
      await manager.query(`SELECT count(*)::int AS n FROM rides WHERE passenger_id = $1 AND status = 'scheduled'`, [passengerId]),
    );
    return rows[0]?.n ?? 0;
  }

  /** One more wrong start PIN on the locked ride. */
  async countWrongPin(rideId: string, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE rides SET start_pin_failures = start_pin_failures + 1 WHERE id = $1`, [rideId]);
  }

  /** The ride row, locked: exclusively, or shared by commands that may run side by side (bids). */
  async lock(rideId: string, mode: 'update' | 'share', manager: EntityManager): Promise<LockedRide | undefined> {
    const rows: LockedRide[] = await manager.query(`SELECT ${LOCKED_COLUMNS} FROM rides WHERE id = $1 FOR ${mode === 'share' ? 'SHARE' : 'UPDATE'}`, [rideId]);
    return rows[0];
  }

  /**
   * Rides the sweep is due to take (the table's condition), oldest first, locked; rows another
   * instance holds are skipped, not waited for, so two sweepers never take the same ride.
   */
  async lockDue(type: SweepCommandType, limit: number, manager: EntityManager): Promise<LockedRide[]> {
    return manager.query(
      `SELECT ${LOCKED_COLUMNS} FROM rides r WHERE ${sqlAllowing(type, 'system', 'r')}
        ORDER BY ${ruleOf(type).due} LIMIT ${Math.trunc(limit)} FOR UPDATE SKIP LOCKED`,
    );
  }

  /**
   * Moves locked rides to `to`, stamping `stamp` and writing `set`; false when a unique index
   * refused it (a driver already holding a live ride: rides_driver_live_uq). The transaction is
   * then aborted and must end.
   */
  async changeStatus(rideIds: string[], to: RideStatus, stamp: RideStamp | undefined, set: RideColumns, manager: EntityManager): Promise<boolean> {
    const params: unknown[] = [rideIds, to];
    const sets = [`status = $2`, `updated_at = now()`];
    if (stamp) sets.push(`${stamp} = now()`);
    for (const [column, value] of Object.entries(set)) {
      params.push(value);
      sets.push(COLUMN_SQL[column as keyof RideColumns](`$${params.length}`));
    }
    try {
      await manager.query(`UPDATE rides SET ${sets.join(', ')} WHERE id = ANY($1::uuid[])`, params);
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async recordEvents(events: RideEventInput[], manager: EntityManager): Promise<void> {
    if (events.length === 0) return;
    const params: unknown[] = [];
    const tuples = events.map((e, i) => {
      params.push(e.rideId, e.from, e.to, e.actorUserId, e.actorRole, e.reason ?? null);
      const o = i * 6;
      return `($${o + 1}::uuid, $${o + 2}, $${o + 3}, $${o + 4}::int, $${o + 5}, $${o + 6})`;
    });
    await manager.query(`INSERT INTO ride_events (ride_id, from_status, to_status, actor_user_id, actor_role, reason) VALUES ${tuples.join(', ')}`, params);
  }

  /** Writes the completion payment row; false if the ride was already paid (primary key). */
  async insertPayment(
    p: { rideId: string; driverId: number; method: string; fareMinor: number; commissionMinor: number; currency: string },
    manager: EntityManager,
  ): Promise<boolean> {
    const rows = rowsOf<{ ride_id: string }>(
      await manager.query(
        `INSERT INTO ride_payments (ride_id, driver_id, method, fare_minor, commission_minor, driver_earning_minor, currency)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (ride_id) DO NOTHING RETURNING ride_id`,
        [p.rideId, p.driverId, p.method, p.fareMinor, p.commissionMinor, p.fareMinor - p.commissionMinor, p.currency],
      ),
    );
    return rows.length > 0;
  }

  /** The passenger's new price of a locked ride. */
  async setOfferedFare(rideId: string, offeredFareMinor: number, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE rides SET offered_fare_minor = $2, updated_at = now() WHERE id = $1`, [rideId, offeredFareMinor]);
  }

  /** A held card ride whose hold Stripe cancelled: failed. False when the ride was not held (released, captured meanwhile). */
  async markHoldFailed(rideId: string, manager: EntityManager): Promise<boolean> {
    const rows = rowsOf<{ id: string }>(
      await manager.query(`UPDATE rides SET payment_status = 'failed', updated_at = now() WHERE id = $1 AND payment_status = 'held' RETURNING id`, [rideId]),
    );
    return rows.length > 0;
  }

  /** A refund's total on the ride (and a card ride's payment status), in the refund's transaction. */
  async setRefunded(rideId: string, refundedMinor: number, paymentStatus: PaymentStatus | null, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE rides SET refunded_minor = $2, payment_status = CASE WHEN payment_method = 'card' THEN coalesce($3, payment_status) END, updated_at = now()
        WHERE id = $1`,
      [rideId, refundedMinor, paymentStatus],
    );
  }

  async deleteUnsharedRidesOf(passengerId: number, manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM rides WHERE passenger_id = $1 AND driver_id IS NULL`, [passengerId]);
  }
}
