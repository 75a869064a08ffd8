import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type WalletKind = 'user' | 'platform' | 'external';

@Entity({ name: 'wallets' })
export class WalletEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** Null for the platform and external accounts, and for wallets of deleted users (kept for the ledger). */
  @Column({ name: 'user_id', type: 'int', nullable: true, unique: true })
  userId!: number | null;

  @Column({ type: 'varchar', length: 16 })
  kind!: WalletKind;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  /** Always equal to the sum of the wallet's ledger entries; updated in the same transaction. */
  @Column({ name: 'balance_minor', type: 'bigint' })
  balanceMinor!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
