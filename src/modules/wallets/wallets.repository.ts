import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { LedgerEntryKind } from './entities/ledger-entry.entity';
import { WalletKind } from './entities/wallet.entity';

export interface WalletRow {
  id: number;
  userId: number | null;
  kind: WalletKind;
  currency: string;
  balanceMinor: number;
  updatedAt: Date;
}

export interface NewLedgerEntry {
  walletId: number;
  amountMinor: number;
  kind: LedgerEntryKind;
  rideId?: string | null;
  reason?: string | null;
}

export interface WalletMismatch {
  wallet_id: number;
  user_id: number | null;
  kind: WalletKind;
  balance_minor: number;
  ledger_minor: number;
}

export interface TransferMismatch {
  transfer_id: string;
  sum_minor: number;
}

export interface LedgerReport {
  wallets: WalletMismatch[];
  transfers: TransferMismatch[];
  walletCount: number;
  transferCount: number;
}

const WALLET_COLUMNS = `id, user_id AS "userId", kind, currency, balance_minor AS "balanceMinor", updated_at AS "updatedAt"`;

/**
 * Whether the wallet of the user `userIdExpr` names covers `amountExpr` (SQL expressions of the
 * caller's statement, never input), as SQL: WalletsService.covers in another module's statement.
 */
export function walletCoversSql(userIdExpr: string, amountExpr: string): string {
  return `EXISTS (SELECT 1 FROM wallets WHERE wallets.user_id = ${userIdExpr} AND wallets.balance_minor >= ${amountExpr})`;
}

@Injectable()
export class WalletsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async insertForUser(userId: number, currency: string, manager?: EntityManager): Promise<void> {
    await this.m(manager).query(`INSERT INTO wallets (user_id, kind, currency) VALUES ($1, 'user', $2) ON CONFLICT (user_id) DO NOTHING`, [userId, currency]);
  }

  async findByUserId(userId: number, manager?: EntityManager): Promise<WalletRow | undefined> {
    const rows: WalletRow[] = await this.m(manager).query(`SELECT ${WALLET_COLUMNS} FROM wallets WHERE user_id = $1`, [userId]);
    return rows[0];
  }

  /** Locks the users' wallets in id order (a fixed order, so two transfers never deadlock). */
  async lockByUserIds(userIds: number[], manager: EntityManager): Promise<WalletRow[]> {
    return manager.query(`SELECT ${WALLET_COLUMNS} FROM wallets WHERE user_id = ANY($1::int[]) ORDER BY id FOR UPDATE`, [userIds]);
  }

  /** What users' wallets paid out for a ride in these kinds of entry, as a positive amount. */
  async sumUserDebitsForRide(rideId: string, kinds: LedgerEntryKind[], manager?: EntityManager): Promise<number> {
    const [row] = await this.m(manager).query(
      `SELECT coalesce(-sum(e.amount_minor), 0)::bigint AS paid
         FROM wallet_ledger_entries e JOIN wallets w ON w.id = e.wallet_id
        WHERE e.ride_id = $1 AND e.kind = ANY($2::text[]) AND w.kind = 'user' AND e.amount_minor < 0`,
      [rideId, kinds],
    );
    return Number(row.paid);
  }

  /** The platform or external account, created on first use. */
  async findOrCreateSystemWallet(kind: 'platform' | 'external', currency: string, manager: EntityManager): Promise<number> {
    await manager.query(`INSERT INTO wallets (kind, currency) VALUES ($1, $2) ON CONFLICT (kind) WHERE kind IN ('platform', 'external') DO NOTHING`, [
      kind,
      currency,
    ]);
    const rows: Array<{ id: number }> = await manager.query(`SELECT id FROM wallets WHERE kind = $1`, [kind]);
    return rows[0]!.id;
  }

  /** Writes one balanced transfer: the entries and the matching balance changes. */
  async recordTransfer(transferId: string, entries: NewLedgerEntry[], manager: EntityManager): Promise<void> {
    const values: unknown[] = [];
    const tuples = entries.map((e, i) => {
      values.push(e.walletId, transferId, e.amountMinor, e.kind, e.rideId ?? null, e.reason ?? null);
      const o = i * 6;
      return `($${o + 1}, $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6})`;
    });
    await manager.query(`INSERT INTO wallet_ledger_entries (wallet_id, transfer_id, amount_minor, kind, ride_id, reason) VALUES ${tuples.join(', ')}`, values);
    for (const e of entries) {
      await manager.query(`UPDATE wallets SET balance_minor = balance_minor + $2, updated_at = now() WHERE id = $1`, [e.walletId, e.amountMinor]);
    }
  }

  /**
   * What does not add up, in one snapshot (a repeatable-read transaction): wallets whose balance is
   * not the sum of their ledger entries, and transfers whose entries do not sum to zero.
   */
  async findLedgerMismatches(): Promise<LedgerReport> {
    return this.dataSource.transaction('REPEATABLE READ', async (m) => {
      const wallets: WalletMismatch[] = await m.query(
        `SELECT w.id AS wallet_id, w.user_id, w.kind, w.balance_minor, coalesce(e.total, 0)::bigint AS ledger_minor
           FROM wallets w
           LEFT JOIN (SELECT wallet_id, sum(amount_minor) AS total FROM wallet_ledger_entries GROUP BY wallet_id) e ON e.wallet_id = w.id
          WHERE w.balance_minor <> coalesce(e.total, 0)
          ORDER BY w.id`,
      );
      const transfers: TransferMismatch[] = await m.query(
        `SELECT transfer_id, sum(amount_minor)::bigint AS sum_minor FROM wallet_ledger_entries
          GROUP BY transfer_id HAVING sum(amount_minor) <> 0 ORDER BY transfer_id`,
      );
      const [counts] = await m.query(
        `SELECT (SELECT count(*) FROM wallets)::int AS wallets, (SELECT count(DISTINCT transfer_id) FROM wallet_ledger_entries)::int AS transfers`,
      );
      return { wallets, transfers, walletCount: counts.wallets, transferCount: counts.transfers };
    });
  }

  async runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
