import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One status transition of a ride (its audit trail); appended in the transaction that changes the ride. */
@Entity({ name: 'ride_events' })
@Check('ride_events_actor_role_check', `actor_role IN ('passenger', 'driver', 'system', 'operator')`)
@Index('ride_events_ride_idx', ['rideId', 'id'])
export class RideEventEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: number;

  @Column({ name: 'ride_id', type: 'uuid' })
  @ForeignKey('rides', { name: 'ride_events_ride_id_fkey', onDelete: 'CASCADE' })
  rideId!: string;

  /** Null for the creation event. */
  @Column({ name: 'from_status', type: 'varchar', length: 20, nullable: true })
  fromStatus!: string | null;

  @Column({ name: 'to_status', type: 'varchar', length: 20 })
  toStatus!: string;

  /** No foreign key: the trail outlives the user. Null for the system. */
  @Column({ name: 'actor_user_id', type: 'int', nullable: true })
  actorUserId!: number | null;

  @Column({ name: 'actor_role', type: 'varchar', length: 16 })
  actorRole!: 'passenger' | 'driver' | 'system' | 'operator';

  @Column({ type: 'varchar', length: 500, nullable: true })
  reason!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
