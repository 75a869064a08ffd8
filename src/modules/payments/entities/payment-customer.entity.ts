import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** A passenger's Stripe customer, created once (`customer:{user_id}`), and the card chosen as default. */
@Entity({ name: 'payment_customers' })
export class PaymentCustomerEntity {
  @PrimaryColumn({ name: 'user_id', type: 'int' })
  @ForeignKey('users', { name: 'payment_customers_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ name: 'stripe_customer_id', type: 'varchar', length: 255, unique: true })
  stripeCustomerId!: string;

  /** Null: the newest card is the default. */
  @Column({ name: 'default_card_id', type: 'varchar', length: 255, nullable: true })
  defaultCardId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
