import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export type LedgerEntryKind =
  | 'funding'
  | 'ride_fare'
  | 'ride_earning'
  | 'ride_commission'
  | 'ride_tip'
  | 'tip_earning'
  // Card money enters from the external account (CONTRACT §12): a captured fare, a card tip.
  | 'card_fare'
  | 'card_tip'
  // The passenger's (or the card's) side of a cancellation fee, and the driver's.
  | 'cancellation_fee'
  | 'fee_earning'
  | 'refund'
  | 'payout'
  // An operator's signed correction against the platform's account (CONTRACT §13).
  | 'adjustment';

/** Append-only (a trigger refuses UPDATE and DELETE); the entries of one transfer sum to zero. */
@Entity({ name: 'wallet_ledger_entries' })
@Check('wallet_ledger_entries_amount_minor_check', `amount_minor <> 0`)
@Index('wallet_ledger_wallet_idx', ['walletId', 'id'])
@Index('wallet_ledger_transfer_idx', ['transferId'])
// A ride's fare, earning, commission, fee and tip are each booked once; refunds may come in parts.
@Index('wallet_ledger_ride_once_uq', ['rideId', 'kind'], { unique: true, where: `ride_id IS NOT NULL AND kind <> 'refund'` })
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: number;

  @Column({ name: 'wallet_id', type: 'int' })
  @ForeignKey('wallets', { name: 'wallet_ledger_entries_wallet_id_fkey', onDelete: 'RESTRICT' })
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

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
