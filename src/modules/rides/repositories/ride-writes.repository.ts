import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { FareEstimate } from '../fare/fare-estimate';
import { rowsOf } from '../../../common/database/sql-results';

import type { RideStatus } from '../ride-status';

export type { RideStatus };
export type ActorRole = 'passenger' | 'driver' | 'system';

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
  currency: string;
  ttlMinutes: number;
}

/** A ride row locked for a transition. `is_past_expiry`: still requested but its time is up. */
export interface LockedRide {
  id: string;
  status: RideStatus;
  passenger_id: number | null;
  driver_id: number | null;
  vehicle_category_id: number;
  payment_method: 'cash' | 'wallet';
  fare_minor: number | null;
  currency: string;
  is_past_expiry: boolean;
}

export interface RideEventInput {
  rideId: string;
  from: RideStatus | null;
  to: RideStatus;
  actorUserId: number | null;
  actorRole: ActorRole;
  reason?: string | null;
}

const TRANSACTION_ATTEMPTS = 3;
/** deadlock_detected, serialization_failure: the transaction did nothing and may simply run again. */
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);

function isRetryableConflict(err: unknown): boolean {
  const code = err instanceof QueryFailedError ? (err.driverError as { code?: string }).code : undefined;
  return code !== undefined && RETRYABLE_SQLSTATES.has(code);
}

/** Timestamp column set by each status. */
const STAMP: Partial<Record<RideStatus, string>> = {
  accepted: 'accepted_at',
  driver_arrived: 'arrived_at',
  started: 'started_at',
  completed: 'completed_at',
  cancelled: 'cancelled_at',
};

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
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.dataSource.transaction(work);
      } catch (err) {
        if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableConflict(err)) throw err;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  }

  /**
   * Inserts a requested ride; false when a unique index refused it (the ride code is taken among
   * live rides, or the passenger already has a live ride). ON CONFLICT waits for a concurrent
   * insert to commit or roll back, so two parallel bookings cannot both pass.
   */
  async insertRequested(r: NewRide, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO rides (id, ride_code, status, ride_type, passenger_id, vehicle_category_id,
          pickup_address, pickup_latitude, pickup_longitude, dropoff_address, dropoff_latitude, dropoff_longitude,
          return_address, return_latitude, return_longitude, passenger_count, children, payment_method,
          duration_minutes, end_scheduled_at, return_scheduled_at, promo_code, estimate, estimated_fare_minor,
          currency, expires_at)
       VALUES ($1, $2, 'requested', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
          $22::jsonb, $23, $24, now() + make_interval(mins => $25))
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        r.id, r.rideCode, r.rideType, r.passengerId, r.vehicleCategoryId,
        r.pickup.address, r.pickup.latitude, r.pickup.longitude,
        r.dropoff.address, r.dropoff.latitude, r.dropoff.longitude,
        r.returnLocation?.address ?? null, r.returnLocation?.latitude ?? null, r.returnLocation?.longitude ?? null,
        r.passengerCount, r.children, r.paymentMethod, r.durationMinutes, r.endScheduledAt, r.returnScheduledAt,
        r.promoCode, JSON.stringify(r.estimate), r.estimate.totalMinor, r.currency, r.ttlMinutes,
      ],
    );
    return rows.length > 0;
  }

  async lockForUpdate(rideId: string, manager: EntityManager): Promise<LockedRide | undefined> {
    return this.lock(rideId, 'UPDATE', manager);
  }

  /** Shared lock: bids may be placed concurrently, but not while the ride is being accepted or cancelled. */
  async lockForShare(rideId: string, manager: EntityManager): Promise<LockedRide | undefined> {
    return this.lock(rideId, 'SHARE', manager);
  }

  private async lock(rideId: string, mode: 'UPDATE' | 'SHARE', manager: EntityManager): Promise<LockedRide | undefined> {
    const rows: LockedRide[] = await manager.query(
      `SELECT id, status, passenger_id, driver_id, vehicle_category_id, payment_method, fare_minor, currency,
              (status = 'requested' AND expires_at <= now()) AS is_past_expiry
         FROM rides WHERE id = $1 FOR ${mode}`,
      [rideId],
    );
    return rows[0];
  }

  /** Moves a locked ride to `to`, stamping its time column; cancellation also records who and why. */
  async setStatus(
    rideId: string,
    to: RideStatus,
    manager: EntityManager,
    cancel?: { by: 'passenger' | 'driver'; reason: string | null },
  ): Promise<void> {
    const stamp = STAMP[to];
    const sets = [`status = $2`, `updated_at = now()`];
    if (stamp) sets.push(`${stamp} = now()`);
    const params: unknown[] = [rideId, to];
    if (cancel) {
      params.push(cancel.by, cancel.reason);
      sets.push(`cancelled_by = $3`, `cancel_reason = $4`);
    }
    await manager.query(`UPDATE rides SET ${sets.join(', ')} WHERE id = $1`, params);
  }

  /**
   * Assigns the winning driver; false when the partial unique index rides_driver_live_uq refused it
   * (the driver already holds a live ride). The transaction is then aborted and must end.
   */
  async assignDriver(rideId: string, driverId: number, bidId: string, fareMinor: number, manager: EntityManager): Promise<boolean> {
    try {
      await manager.query(
        `UPDATE rides SET status = 'accepted', driver_id = $2, accepted_bid_id = $3, fare_minor = $4,
                accepted_at = now(), updated_at = now()
          WHERE id = $1`,
        [rideId, driverId, bidId, fareMinor],
      );
      return true;
    } catch (err) {
      if (err instanceof QueryFailedError && (err.driverError as { constraint?: string }).constraint === 'rides_driver_live_uq') {
        return false;
      }
      throw err;
    }
  }

  /** Requested rides whose time is up, locked; rows another instance holds are skipped, not waited for. */
  async lockExpiredRequested(limit: number, manager: EntityManager): Promise<Array<{ id: string }>> {
    return manager.query(
      `SELECT id FROM rides WHERE status = 'requested' AND expires_at <= now()
        ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
    );
  }

  async markExpired(rideIds: string[], manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE rides SET status = 'expired', updated_at = now() WHERE id = ANY($1::uuid[])`, [rideIds]);
  }

  async recordEvents(events: RideEventInput[], manager: EntityManager): Promise<void> {
    if (events.length === 0) return;
    const params: unknown[] = [];
    const tuples = events.map((e, i) => {
      params.push(e.rideId, e.from, e.to, e.actorUserId, e.actorRole, e.reason ?? null);
      const o = i * 6;
      return `($${o + 1}::uuid, $${o + 2}, $${o + 3}, $${o + 4}::int, $${o + 5}, $${o + 6})`;
    });
    await manager.query(
      `INSERT INTO ride_events (ride_id, from_status, to_status, actor_user_id, actor_role, reason) VALUES ${tuples.join(', ')}`,
      params,
    );
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

  async deleteUnsharedRidesOf(passengerId: number, manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM rides WHERE passenger_id = $1 AND driver_id IS NULL`, [passengerId]);
  }
}
