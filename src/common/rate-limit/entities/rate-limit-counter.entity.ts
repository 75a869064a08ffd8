import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A fixed-window counter of PostgresRateLimiter (used when there is no Redis). The table is
 * UNLOGGED (losing it in a crash only resets limits): set in the migration, TypeORM has no option.
 */
@Entity({ name: 'rate_limit_counters' })
@Index('rate_limit_counters_reset_idx', ['resetAt'])
export class RateLimitCounterEntity {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  key!: string;

  @Column({ type: 'int' })
  hits!: number;

  @Column({ name: 'reset_at', type: 'timestamptz' })
  resetAt!: Date;
}
