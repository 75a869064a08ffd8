import { performance } from 'node:perf_hooks';
import { Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { Metrics } from './metrics';

const NO_LABELS = (): Record<string, string> => ({});

type ConnectCallback = (err: Error | undefined, client: unknown, release: (err?: unknown) => void) => void;

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: { max?: number };
  connect(callback?: ConnectCallback): unknown;
}

/**
 * Pool pressure: connections busy and idle and queries waiting (read when scraped), and how long
 * each acquisition waited for a connection (the histogram's first bucket holds the immediate ones).
 * Every acquisition is timed: pg-pool hands idle connections out on the next tick, so whether a
 * call will wait cannot be told when it is made. Two clock reads per query.
 */
export function instrumentPool(db: DataSource, metrics: Metrics): void {
  const pool = (db.driver as unknown as { master?: PgPool }).master;
  if (!pool) return;
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections of this instance by state (busy, idle, waiting = queries queued for a connection)',
    labelNames: ['state'] as const,
    registers: [metrics.registry],
    collect() {
      this.set({ state: 'busy' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new Gauge({ name: 'db_pool_max', help: 'Size of the PostgreSQL pool', registers: [metrics.registry] }).set(pool.options.max ?? 10);
  const connect = pool.connect.bind(pool);
  pool.connect = (callback?: ConnectCallback): unknown => {
    if (!callback) return connect(callback);
    const started = performance.now();
    return connect((err, client, release) => {
      metrics.dbPoolWait.observe('', NO_LABELS, (performance.now() - started) / 1000);
      callback(err, client, release);
    });
  };
}
