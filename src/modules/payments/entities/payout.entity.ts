import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A payout: one Stripe transfer (`payout:{id}`) and the wallet debit, written in one transaction. */
@Entity({ name: 'payouts' })
@Check('payouts_amount_minor_check', `amount_minor > 0`)
@Check('payouts_status_check', `status IN ('paid')`)
// (driver_id, created_at) read backwards for the newest-first list.
@Index('payouts_driver_created_idx', ['driverId', 'createdAt'])
// The client's Idempotency-Key: a retried request finds the payout it made.
@Index('payouts_request_key_uq', ['driverId', 'requestKey'], { unique: true, where: 'request_key IS NOT NULL' })
export class PayoutEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'driver_id', type: 'int', nullable: true })
  @ForeignKey('users', { name: 'payouts_driver_id_fkey', onDelete: 'SET NULL' })
  driverId!: number | null;

  @Column({ name: 'amount_minor', type: 'bigint' })
  amountMinor!: number;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  @Column({ type: 'varchar', length: 16, default: 'paid' })
  status!: 'paid';

  @Column({ name: 'stripe_transfer_id', type: 'varchar', length: 255, unique: true })
  stripeTransferId!: string;

  @Column({ name: 'request_key', type: 'varchar', length: 200, nullable: true })
  requestKey!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
