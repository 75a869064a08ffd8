import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../../../common/database/sql-results';

export interface PayoutAccountRow {
  driverId: number;
  stripeAccountId: string;
  payoutsEnabled: boolean;
}

export interface PayoutRow {
  id: string;
  driverId: number | null;
  amountMinor: number;
  currency: string;
  status: 'paid';
  stripeTransferId: string;
  requestKey: string | null;
  createdAt: Date;
}

const ACCOUNT = `driver_id AS "driverId", stripe_account_id AS "stripeAccountId", payouts_enabled AS "payoutsEnabled"`;
const PAYOUT = `id, driver_id AS "driverId", amount_minor AS "amountMinor", currency, status, stripe_transfer_id AS "stripeTransferId",
  request_key AS "requestKey", created_at AS "createdAt"`;

/** Drivers' connected accounts and their payouts. */
@Injectable()
export class PayoutsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async findAccount(driverId: number, manager?: EntityManager): Promise<PayoutAccountRow | undefined> {
    const rows: PayoutAccountRow[] = await this.m(manager).query(`SELECT ${ACCOUNT} FROM payout_accounts WHERE driver_id = $1`, [driverId]);
    return rows[0];
  }

  /** Keeps the first account recorded (a concurrent creation got the same one from Stripe: same key). */
  async insertAccount(driverId: number, stripeAccountId: string): Promise<PayoutAccountRow> {
    await this.m().query(`INSERT INTO payout_accounts (driver_id, stripe_account_id) VALUES ($1, $2) ON CONFLICT (driver_id) DO NOTHING`, [
      driverId,
      stripeAccountId,
    ]);
    return (await this.findAccount(driverId))!;
  }

  /** Answers the driver whose readiness changed (undefined: unknown account, or no change). */
  async setPayoutsEnabled(stripeAccountId: string, enabled: boolean, manager: EntityManager): Promise<number | undefined> {
    const rows = rowsOf<{ driver_id: number }>(
      await manager.query(
        `UPDATE payout_accounts SET payouts_enabled = $2, updated_at = now()
        WHERE stripe_account_id = $1 AND payouts_enabled IS DISTINCT FROM $2 RETURNING driver_id`,
        [stripeAccountId, enabled],
      ),
    );
    return rows[0]?.driver_id;
  }

  async findByRequestKey(driverId: number, requestKey: string, manager: EntityManager): Promise<PayoutRow | undefined> {
    const rows: PayoutRow[] = await manager.query(`SELECT ${PAYOUT} FROM payouts WHERE driver_id = $1 AND request_key = $2`, [driverId, requestKey]);
    return rows[0];
  }

  async insert(payout: Omit<PayoutRow, 'createdAt' | 'status'>, manager: EntityManager): Promise<PayoutRow> {
    const rows: PayoutRow[] = await manager.query(
      `INSERT INTO payouts (id, driver_id, amount_minor, currency, stripe_transfer_id, request_key) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${PAYOUT}`,
      [payout.id, payout.driverId, payout.amountMinor, payout.currency, payout.stripeTransferId, payout.requestKey],
    );
    return rows[0]!;
  }

  async listForDriver(driverId: number, page: number, limit: number): Promise<{ items: PayoutRow[]; total: number }> {
    const items: PayoutRow[] = await this.m().query(`SELECT ${PAYOUT} FROM payouts WHERE driver_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`, [
      driverId,
      limit,
      (page - 1) * limit,
    ]);
    const [count] = await this.m().query(`SELECT count(*)::int AS total FROM payouts WHERE driver_id = $1`, [driverId]);
    return { items, total: count.total as number };
  }

  async runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
