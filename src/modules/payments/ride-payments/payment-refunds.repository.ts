import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { RefundSource } from '../entities/payment-refund.entity';

export interface PaymentRefundRow {
  id: string;
  rideId: string;
  amountMinor: number;
  currency: string;
  source: RefundSource;
  reason: string | null;
  createdAt: Date;
}

const COLUMNS = `id, ride_id AS "rideId", amount_minor AS "amountMinor", currency, source, reason, created_at AS "createdAt"`;

/** Refunds of rides and the Stripe refunds that carried them. */
@Injectable()
export class PaymentRefundsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(id: string, manager?: EntityManager): Promise<PaymentRefundRow | undefined> {
    const rows: PaymentRefundRow[] = await (manager ?? this.dataSource.manager).query(`SELECT ${COLUMNS} FROM payment_refunds WHERE id = $1`, [id]);
    return rows[0];
  }

  async totalForRide(rideId: string, manager?: EntityManager): Promise<number> {
    const [row] = await (manager ?? this.dataSource.manager).query(
      `SELECT coalesce(sum(amount_minor), 0)::bigint AS total FROM payment_refunds WHERE ride_id = $1`,
      [rideId],
    );
    return Number(row.total);
  }

  async insert(refund: Omit<PaymentRefundRow, 'createdAt'>, manager: EntityManager): Promise<PaymentRefundRow> {
    const rows: PaymentRefundRow[] = await manager.query(
      `INSERT INTO payment_refunds (id, ride_id, amount_minor, currency, source, reason) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [refund.id, refund.rideId, refund.amountMinor, refund.currency, refund.source, refund.reason],
    );
    return rows[0]!;
  }

  /** Whether this Stripe refund is recorded (ours, or one a webhook already told). */
  async hasCardRefund(stripeRefundId: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM card_refunds WHERE stripe_refund_id = $1`, [stripeRefundId]);
    return rows.length > 0;
  }

  async insertCardRefund(stripeRefundId: string, refundId: string, cardPaymentId: string, amountMinor: number, manager: EntityManager): Promise<void> {
    await manager.query(`INSERT INTO card_refunds (stripe_refund_id, refund_id, card_payment_id, amount_minor) VALUES ($1, $2, $3, $4)`, [
      stripeRefundId,
      refundId,
      cardPaymentId,
      amountMinor,
    ]);
  }
}
