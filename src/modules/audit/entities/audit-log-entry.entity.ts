import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One operator write (CONTRACT §13): who, what, on which target, why. Append-only: triggers refuse
 * UPDATE, DELETE and TRUNCATE (migration 1763800018000). No foreign keys: the trail outlives the
 * accounts and rides it names. `actor_id` null: the operator CLI.
 */
@Entity({ name: 'audit_log' })
@Check('audit_log_reason_check', `char_length(reason) >= 3`)
@Index('audit_log_target_idx', ['targetId', 'id'])
@Index('audit_log_actor_idx', ['actorId', 'id'])
export class AuditLogEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'actor_id', type: 'int', nullable: true })
  actorId!: number | null;

  @Column({ type: 'varchar', length: 64 })
  action!: string;

  @Column({ name: 'target_type', type: 'varchar', length: 32 })
  targetType!: string;

  @Column({ name: 'target_id', type: 'varchar', length: 64 })
  targetId!: string;

  @Column({ type: 'varchar', length: 500 })
  reason!: string;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  details!: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;
}
