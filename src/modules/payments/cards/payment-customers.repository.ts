import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../../../common/database/sql-results';

export interface PaymentCustomerRow {
  userId: number;
  stripeCustomerId: string;
  defaultCardId: string | null;
}

const COLUMNS = `user_id AS "userId", stripe_customer_id AS "stripeCustomerId", default_card_id AS "defaultCardId"`;

/** Passengers' Stripe customers and their chosen default card. */
@Injectable()
export class PaymentCustomersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async find(userId: number, manager?: EntityManager): Promise<PaymentCustomerRow | undefined> {
    const rows: PaymentCustomerRow[] = await this.m(manager).query(`SELECT ${COLUMNS} FROM payment_customers WHERE user_id = $1`, [userId]);
    return rows[0];
  }

  /** The customer row locked until the caller's transaction ends: a passenger's holds, tips and detaches take turns. */
  async lock(userId: number, manager: EntityManager): Promise<PaymentCustomerRow | undefined> {
    const rows: PaymentCustomerRow[] = await manager.query(`SELECT ${COLUMNS} FROM payment_customers WHERE user_id = $1 FOR UPDATE`, [userId]);
    return rows[0];
  }

  /** Keeps the first customer recorded (two concurrent setups got the same one from Stripe anyway: same key). */
  async insert(userId: number, stripeCustomerId: string, manager?: EntityManager): Promise<PaymentCustomerRow> {
    await this.m(manager).query(`INSERT INTO payment_customers (user_id, stripe_customer_id) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING`, [
      userId,
      stripeCustomerId,
    ]);
    return (await this.find(userId, manager))!;
  }

  async setDefault(userId: number, cardId: string | null, manager?: EntityManager): Promise<void> {
    await this.m(manager).query(`UPDATE payment_customers SET default_card_id = $2, updated_at = now() WHERE user_id = $1`, [userId, cardId]);
  }

  /** A card saved through a SetupIntent becomes the default of a customer who has none. */
  async setDefaultIfNone(stripeCustomerId: string, cardId: string, manager: EntityManager): Promise<boolean> {
    const rows = rowsOf(
      await manager.query(
        `UPDATE payment_customers SET default_card_id = $2, updated_at = now()
          WHERE stripe_customer_id = $1 AND default_card_id IS NULL RETURNING user_id`,
        [stripeCustomerId, cardId],
      ),
    );
    return rows.length > 0;
  }
}
