import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A booking request's Idempotency-Key: a replay with the same body returns the same ride. */
@Entity({ name: 'idempotency_keys' })
@Index('idempotency_keys_created_idx', ['createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ name: 'user_id', type: 'int' })
  @ForeignKey('users', { name: 'idempotency_keys_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @PrimaryColumn({ type: 'varchar', length: 200 })
  key!: string;

  /** SHA-256 (hex) of the request body: the same key with another body is refused. */
  @Column({ name: 'request_hash', type: 'char', length: 64 })
  requestHash!: string;

  @Column({ name: 'ride_id', type: 'uuid', nullable: true })
  rideId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
