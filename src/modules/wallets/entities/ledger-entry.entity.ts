import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type LedgerEntryKind = 'funding' | 'ride_fare' | 'ride_earning' | 'ride_commission';

/** Append-only (a trigger refuses UPDATE and DELETE); the entries of one transfer sum to zero. */
@Entity({ name: 'wallet_ledger_entries' })
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: number;

  @Column({ name: 'wallet_id', type: 'int' })
  walletId!: number;

  @Column({ name: 'transfer_id', type: 'uuid' })
  transferId!: string;

  @Column({ name: 'amount_minor', type: 'bigint' })
  amountMinor!: number;

  @Column({ type: 'varchar', length: 32 })
  kind!: LedgerEntryKind;

  @Column({ name: 'ride_id', type: 'uuid', nullable: true })
  rideId!: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  reason!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
