import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

export type CardPaymentPurpose = 'fare' | 'tip';
/** held: authorised, not captured; captured: money taken (all or part); released: the hold cancelled; declined: Stripe said 402; failed: capture failed or the hold expired. */
export type CardPaymentStatus = 'held' | 'captured' | 'released' | 'declined' | 'failed';

/** One PaymentIntent of a ride: its fare hold or its card tip; each attempt is a row of its own. */
@Entity({ name: 'card_payments' })
@Check('card_payments_purpose_check', `purpose IN ('fare', 'tip')`)
@Check('card_payments_attempt_check', `attempt >= 1`)
@Check('card_payments_status_check', `status IN ('held', 'captured', 'released', 'declined', 'failed')`)
@Check('card_payments_amount_minor_check', `amount_minor > 0`)
@Check('card_payments_captured_check', `captured_minor >= 0 AND captured_minor <= amount_minor`)
@Check('card_payments_refunded_check', `refunded_minor >= 0 AND refunded_minor <= captured_minor`)
@Index('card_payments_attempt_uq', ['rideId', 'purpose', 'attempt'], { unique: true })
// At most one live hold (and one tip) per ride, whatever the callers do.
@Index('card_payments_one_live_uq', ['rideId', 'purpose'], { unique: true, where: `status IN ('held', 'captured')` })
@Index('card_payments_held_card_idx', ['cardId'], { where: `status = 'held'` })
export class CardPaymentEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'ride_id', type: 'uuid' })
  @ForeignKey('rides', { name: 'card_payments_ride_id_fkey', onDelete: 'RESTRICT' })
  rideId!: string;

  /** The passenger; null once the account is deleted. */
  @Column({ name: 'user_id', type: 'int', nullable: true })
  @ForeignKey('users', { name: 'card_payments_user_id_fkey', onDelete: 'SET NULL' })
  userId!: number | null;

  @Column({ type: 'varchar', length: 8 })
  purpose!: CardPaymentPurpose;

  @Column({ type: 'smallint' })
  attempt!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: CardPaymentStatus;

  /** Null only for a decline Stripe answered without a PaymentIntent. */
  @Column({
    name: 'stripe_payment_intent_id',
    type: 'varchar',
    length: 255,
    nullable: true,
    unique: true,
  })
  stripePaymentIntentId!: string | null;

  @Column({ name: 'card_id', type: 'varchar', length: 255 })
  cardId!: string;

  /** What was authorised (a fare's hold includes CARD_HOLD_MARGIN_PERCENT). */
  @Column({ name: 'amount_minor', type: 'bigint' })
  amountMinor!: number;

  @Column({ name: 'captured_minor', type: 'bigint', default: 0 })
  capturedMinor!: number;

  @Column({ name: 'refunded_minor', type: 'bigint', default: 0 })
  refundedMinor!: number;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
