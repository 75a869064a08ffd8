import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';

/** A driver's offer on a requested ride; at most one per driver and ride. */
@Entity({ name: 'bids' })
@Check('bids_amount_minor_check', `amount_minor > 0`)
@Check('bids_eta_minutes_check', `eta_minutes >= 0`)
@Check('bids_status_check', `status IN ('pending', 'accepted', 'rejected', 'withdrawn')`)
@Unique('bids_ride_id_driver_id_key', ['rideId', 'driverId'])
@Index('bids_ride_amount_idx', ['rideId', 'amountMinor'])
@Index('bids_driver_idx', ['driverId'])
export class BidEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'ride_id', type: 'uuid' })
  @ForeignKey('rides', { name: 'bids_ride_id_fkey', onDelete: 'CASCADE' })
  rideId!: string;

  @Column({ name: 'driver_id', type: 'int' })
  @ForeignKey('users', { name: 'bids_driver_id_fkey', onDelete: 'CASCADE' })
  driverId!: number;

  @Column({ name: 'amount_minor', type: 'bigint' })
  amountMinor!: number;

  @Column({ name: 'eta_minutes', type: 'int' })
  etaMinutes!: number;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: 'pending' | 'accepted' | 'rejected' | 'withdrawn';

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
