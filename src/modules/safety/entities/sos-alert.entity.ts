import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An SOS raised on a live ride (CONTRACT §14); documents the schema for TypeORM's diff, written with raw SQL. */
@Entity({ name: 'sos_alerts' })
@Check('sos_alerts_raised_by_check', `raised_by IN ('passenger', 'driver')`)
@Check('sos_alerts_source_check', `source IN ('button', 'ride_check')`)
@Check('sos_alerts_status_check', `status IN ('open', 'resolved')`)
@Check('sos_alerts_resolved_check', `(status = 'resolved') = (resolved_at IS NOT NULL)`)
@Index('sos_alerts_open_ride_uq', ['rideId'], { unique: true, where: `status = 'open'` })
@Index('sos_alerts_status_idx', ['status', 'id'])
export class SosAlertEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'ride_id', type: 'uuid' })
  rideId!: string;

  @Column({ name: 'raised_by', type: 'varchar', length: 16 })
  raisedBy!: 'passenger' | 'driver';

  @Column({ name: 'raised_by_user_id', type: 'int' })
  raisedByUserId!: number;

  @Column({ type: 'varchar', length: 16, default: 'button' })
  source!: 'button' | 'ride_check';

  @Column({ type: 'varchar', length: 16, default: 'open' })
  status!: 'open' | 'resolved';

  @Column({ type: 'float8', nullable: true })
  latitude!: number | null;

  @Column({ type: 'float8', nullable: true })
  longitude!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt!: Date | null;

  @Column({ name: 'resolved_by', type: 'int', nullable: true })
  resolvedBy!: number | null;

  @Column({ name: 'resolution_reason', type: 'varchar', length: 500, nullable: true })
  resolutionReason!: string | null;
}
