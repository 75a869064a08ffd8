import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

export type RefundSource = 'card' | 'wallet' | 'provider';

/** A refund of a ride (CONTRACT §12): its id names the Stripe key `refund:{id}`; `provider` = made in Stripe's dashboard. */
@Entity({ name: 'payment_refunds' })
@Check('payment_refunds_amount_minor_check', `amount_minor > 0`)
@Check('payment_refunds_source_check', `source IN ('card', 'wallet', 'provider')`)
@Index('payment_refunds_ride_idx', ['rideId'])
export class PaymentRefundEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'ride_id', type: 'uuid' })
  @ForeignKey('rides', { name: 'payment_refunds_ride_id_fkey', onDelete: 'RESTRICT' })
  rideId!: string;

  @Column({ name: 'amount_minor', type: 'bigint' })
  amountMinor!: number;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  @Column({ type: 'varchar', length: 16 })
  source!: RefundSource;

  @Column({ type: 'varchar', length: 500, nullable: true })
  reason!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
