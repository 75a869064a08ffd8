import type { DataSource } from 'typeorm';
import { runSeeds } from './seeds/run-seeds';

// Any constant shared by every instance: several instances starting together migrate once.
const MIGRATION_LOCK_KEY = 741_852_963;

/** Applies pending migrations and the idempotent seeds under a cluster-wide advisory lock. */
export async function migrateAndSeed(dataSource: DataSource): Promise<string[]> {
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    await runSeeds(dataSource);
    return applied.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
  }
}
