import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** One refund Stripe made against one PaymentIntent (a refund of a ride may take two: fare, then tip). */
@Entity({ name: 'card_refunds' })
@Check('card_refunds_amount_minor_check', `amount_minor > 0`)
@Index('card_refunds_refund_idx', ['refundId'])
export class CardRefundEntity {
  @PrimaryColumn({ name: 'stripe_refund_id', type: 'varchar', length: 255 })
  stripeRefundId!: string;

  @Column({ name: 'refund_id', type: 'uuid' })
  @ForeignKey('payment_refunds', { name: 'card_refunds_refund_id_fkey', onDelete: 'RESTRICT' })
  refundId!: string;

  @Column({ name: 'card_payment_id', type: 'uuid' })
  @ForeignKey('card_payments', { name: 'card_refunds_card_payment_id_fkey', onDelete: 'RESTRICT' })
  cardPaymentId!: string;

  @Column({ name: 'amount_minor', type: 'bigint' })
  amountMinor!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
