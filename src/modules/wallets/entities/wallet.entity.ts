import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export type WalletKind = 'user' | 'platform' | 'external';

@Entity({ name: 'wallets' })
@Check('wallets_kind_check', `kind IN ('user', 'platform', 'external')`)
// The platform bears refunds (CONTRACT §12) and may owe more than its commissions brought in.
@Check('wallets_check', `kind IN ('external', 'platform') OR balance_minor >= 0`)
// One platform and one external account.
@Index('wallets_system_kind_uq', ['kind'], { unique: true, where: `kind IN ('platform', 'external')` })
export class WalletEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** Null for the platform and external accounts, and for wallets of deleted users (kept for the ledger). */
  @Column({ name: 'user_id', type: 'int', nullable: true, unique: true })
  @ForeignKey('users', { name: 'wallets_user_id_fkey', onDelete: 'SET NULL' })
  userId!: number | null;

  @Column({ type: 'varchar', length: 16, default: 'user' })
  kind!: WalletKind;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  /** Always equal to the sum of the wallet's ledger entries; updated in the same transaction. */
  @Column({ name: 'balance_minor', type: 'bigint', default: 0 })
  balanceMinor!: number;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
