import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RateLimiter, RateLimitResult, toResult } from './rate-limiter';

/** Expired rows are swept about once per this many hits (the table is unlogged and small). */
const SWEEP_EVERY_HITS = 500;

/**
 * Counters in the unlogged table rate_limit_counters: one atomic upsert per hit, so concurrent
 * requests on any instance count exactly once each.
 */
export class PostgresRateLimiter extends RateLimiter {
  private readonly logger = new Logger(PostgresRateLimiter.name);
  private hitsSinceSweep = 0;

  constructor(private readonly db: DataSource) {
    super();
  }

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    const rows: Array<{ hits: number; ms_left: number }> = await this.db.query(
      `INSERT INTO rate_limit_counters AS c (key, hits, reset_at)
       VALUES ($1, 1, clock_timestamp() + make_interval(secs => $2))
       ON CONFLICT (key) DO UPDATE SET
         hits     = CASE WHEN c.reset_at <= clock_timestamp() THEN 1 ELSE c.hits + 1 END,
         reset_at = CASE WHEN c.reset_at <= clock_timestamp()
                         THEN clock_timestamp() + make_interval(secs => $2) ELSE c.reset_at END
       RETURNING hits, (extract(epoch FROM (reset_at - clock_timestamp())) * 1000)::float8 AS ms_left`,
      [key, windowSeconds],
    );
    this.maybeSweep();
    const row = rows[0]!;
    return toResult(row.hits, limit, row.ms_left);
  }

  async refund(key: string): Promise<void> {
    await this.db.query(`UPDATE rate_limit_counters SET hits = hits - 1 WHERE key = $1 AND hits > 0 AND reset_at > clock_timestamp()`, [key]);
  }

  private maybeSweep(): void {
    this.hitsSinceSweep += 1;
    if (this.hitsSinceSweep < SWEEP_EVERY_HITS) return;
    this.hitsSinceSweep = 0;
    this.db
      .query(`DELETE FROM rate_limit_counters WHERE reset_at < now() - interval '1 minute'`)
      .catch((err: unknown) => this.logger.warn({ err, msg: 'Sweeping expired rate-limit counters failed' }));
  }
}
