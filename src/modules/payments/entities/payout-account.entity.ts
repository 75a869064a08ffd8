import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** A driver's Stripe connected (Express) account; `account.updated` says when it may receive payouts. */
@Entity({ name: 'payout_accounts' })
export class PayoutAccountEntity {
  @PrimaryColumn({ name: 'driver_id', type: 'int' })
  @ForeignKey('users', { name: 'payout_accounts_driver_id_fkey', onDelete: 'CASCADE' })
  driverId!: number;

  @Column({ name: 'stripe_account_id', type: 'varchar', length: 255, unique: true })
  stripeAccountId!: string;

  @Column({ name: 'payouts_enabled', type: 'boolean', default: false })
  payoutsEnabled!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
