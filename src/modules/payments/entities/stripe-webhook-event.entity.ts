import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A Stripe event applied: written in the transaction of its effect, so each event id takes effect once. */
@Entity({ name: 'stripe_webhook_events' })
export class StripeWebhookEventEntity {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  type!: string;

  @Column({ name: 'received_at', type: 'timestamptz', default: () => 'now()' })
  receivedAt!: Date;
}
