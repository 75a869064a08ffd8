import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** Booking retries: (user, Idempotency-Key) → the request's hash and the ride it created, for 24 hours. */
@Injectable()
export class IdempotencyKeysRepository {
  /**
   * Claims the key inside the booking transaction. A concurrent claim of the same key waits on the
   * primary key until this transaction ends, then sees it taken: one ride per key. A claim older
   * than 24 hours is released first.
   */
  async claim(userId: number, key: string, requestHash: string, manager: EntityManager): Promise<boolean> {
    await manager.query(`DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND created_at < now() - interval '24 hours'`, [userId, key]);
    const rows: unknown[] = await manager.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING key`,
      [userId, key, requestHash],
    );
    return rows.length > 0;
  }

  async find(userId: number, key: string, manager: EntityManager): Promise<{ request_hash: string; ride_id: string | null } | undefined> {
    const rows: Array<{ request_hash: string; ride_id: string | null }> = await manager.query(
      `SELECT request_hash, ride_id FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
      [userId, key],
    );
    return rows[0];
  }

  async attachRide(userId: number, key: string, rideId: string, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE idempotency_keys SET ride_id = $3 WHERE user_id = $1 AND key = $2`, [userId, key, rideId]);
  }
}
