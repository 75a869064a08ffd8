import { DataSource, MigrationExecutor } from 'typeorm';
import { runSeeds } from './seeds/run-seeds';

// Any constant shared by every instance: several instances starting together migrate once.
const MIGRATION_LOCK_KEY = 741_852_963;

/** Applies pending migrations and the idempotent seeds under a cluster-wide advisory lock. */
export async function migrateAndSeed(dataSource: DataSource): Promise<string[]> {
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    // The pool's statement timeout guards requests; waiting for another instance's migrations, and
    // a migration rewriting a large table, may take longer. This session runs both, without it.
    await lock.query('SET statement_timeout = 0');
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const executor = new MigrationExecutor(dataSource, lock);
    executor.transaction = 'each';
    const applied = await executor.executePendingMigrations();
    await runSeeds(dataSource);
    return applied.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.query('RESET statement_timeout').catch(() => undefined);
    await lock.release();
  }
}
