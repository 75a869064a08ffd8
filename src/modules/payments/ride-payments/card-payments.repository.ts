import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { CardPaymentPurpose, CardPaymentStatus } from '../entities/card-payment.entity';

export interface CardPaymentRow {
  id: string;
  rideId: string;
  userId: number | null;
  purpose: CardPaymentPurpose;
  attempt: number;
  status: CardPaymentStatus;
  stripePaymentIntentId: string | null;
  cardId: string;
  amountMinor: number;
  capturedMinor: number;
  refundedMinor: number;
  currency: string;
  createdAt: Date;
}

export type NewCardPayment = Omit<CardPaymentRow, 'refundedMinor' | 'createdAt'>;

const COLUMNS = `id, ride_id AS "rideId", user_id AS "userId", purpose, attempt, status,
  stripe_payment_intent_id AS "stripePaymentIntentId", card_id AS "cardId", amount_minor AS "amountMinor",
  captured_minor AS "capturedMinor", refunded_minor AS "refundedMinor", currency, created_at AS "createdAt"`;

/** The PaymentIntents of rides: fare holds and card tips, one row per attempt. */
@Injectable()
export class CardPaymentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /** The attempt number the next PaymentIntent of this ride and purpose takes (its key's suffix). */
  async nextAttempt(rideId: string, purpose: CardPaymentPurpose, manager: EntityManager): Promise<number> {
    const [row] = await manager.query(`SELECT coalesce(max(attempt), 0)::int + 1 AS next FROM card_payments WHERE ride_id = $1 AND purpose = $2`, [
      rideId,
      purpose,
    ]);
    return row.next as number;
  }

  async insert(p: NewCardPayment, manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO card_payments (id, ride_id, user_id, purpose, attempt, status, stripe_payment_intent_id, card_id, amount_minor, captured_minor, currency)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [p.id, p.rideId, p.userId, p.purpose, p.attempt, p.status, p.stripePaymentIntentId, p.cardId, p.amountMinor, p.capturedMinor, p.currency],
    );
  }

  /** The ride's live (held or captured) payment of this purpose, locked when a transaction is given and `lock` says so. */
  async findLive(rideId: string, purpose: CardPaymentPurpose, manager?: EntityManager, lock = false): Promise<CardPaymentRow | undefined> {
    const rows: CardPaymentRow[] = await this.m(manager).query(
      `SELECT ${COLUMNS} FROM card_payments WHERE ride_id = $1 AND purpose = $2 AND status IN ('held', 'captured')${lock ? ' FOR UPDATE' : ''}`,
      [rideId, purpose],
    );
    return rows[0];
  }

  /** The ride's latest attempt of this purpose, whatever its status. */
  async findLatest(rideId: string, purpose: CardPaymentPurpose, manager?: EntityManager): Promise<CardPaymentRow | undefined> {
    const rows: CardPaymentRow[] = await this.m(manager).query(
      `SELECT ${COLUMNS} FROM card_payments WHERE ride_id = $1 AND purpose = $2 ORDER BY attempt DESC LIMIT 1`,
      [rideId, purpose],
    );
    return rows[0];
  }

  /** The ride's payments that took money, fare first, locked for a refund. */
  async lockCaptured(rideId: string, manager: EntityManager): Promise<CardPaymentRow[]> {
    return manager.query(
      `SELECT ${COLUMNS} FROM card_payments WHERE ride_id = $1 AND status = 'captured' AND captured_minor > 0
        ORDER BY (purpose = 'tip'), attempt FOR UPDATE`,
      [rideId],
    );
  }

  async setStatus(id: string, status: CardPaymentStatus, manager: EntityManager, capturedMinor?: number): Promise<void> {
    await manager.query(`UPDATE card_payments SET status = $2, captured_minor = coalesce($3, captured_minor), updated_at = now() WHERE id = $1`, [
      id,
      status,
      capturedMinor ?? null,
    ]);
  }

  async addRefunded(id: string, amountMinor: number, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE card_payments SET refunded_minor = refunded_minor + $2, updated_at = now() WHERE id = $1`, [id, amountMinor]);
  }

  /** Whether a hold is live on this card (detaching it is refused meanwhile). */
  async isHeldOnCard(cardId: string, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.m(manager).query(`SELECT 1 FROM card_payments WHERE card_id = $1 AND status = 'held' LIMIT 1`, [cardId]);
    return rows.length > 0;
  }

  async runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
