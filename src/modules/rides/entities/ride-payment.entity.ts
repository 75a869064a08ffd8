import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** The settlement of a completed ride. The primary key on ride_id is what makes payment exactly-once. */
@Entity({ name: 'ride_payments' })
@Check('ride_payments_method_check', `method IN ('cash', 'wallet', 'card')`)
// (driver_id, created_at DESC) in the migration: TypeORM cannot express the order.
@Index('ride_payments_driver_idx', ['driverId', 'createdAt'])
export class RidePaymentEntity {
  @PrimaryColumn({ name: 'ride_id', type: 'uuid' })
  @ForeignKey('rides', { name: 'ride_payments_ride_id_fkey', onDelete: 'CASCADE' })
  rideId!: string;

  @Column({ name: 'driver_id', type: 'int', nullable: true })
  @ForeignKey('users', { name: 'ride_payments_driver_id_fkey', onDelete: 'SET NULL' })
  driverId!: number | null;

  @Column({ type: 'varchar', length: 16 })
  method!: 'cash' | 'wallet' | 'card';

  @Column({ name: 'fare_minor', type: 'bigint' })
  fareMinor!: number;

  @Column({ name: 'commission_minor', type: 'bigint' })
  commissionMinor!: number;

  @Column({ name: 'driver_earning_minor', type: 'bigint' })
  driverEarningMinor!: number;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
