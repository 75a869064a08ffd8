import 'reflect-metadata';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { migrateAndSeed } from '../../src/database/migrate';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { urlForDatabase, withAdminClient } from './test-database';
import { dropDatabasesOfDeadRuns } from './global-teardown';

/**
 * One PostgreSQL per test run: the server at DATABASE_URL when set, otherwise an embedded one in a
 * temporary directory. A template database is migrated once; each test file clones it.
 */
export default async function globalSetup(): Promise<void> {
  let admin = process.env.DATABASE_URL;
  if (!admin) {
    const root = mkdtempSync(join(tmpdir(), 'rh-test-pg-'));
    // As root, PostgreSQL runs as an unprivileged user that must be able to enter this directory.
    chmodSync(root, 0o755);
    const dataDir = join(root, 'data');
    const embedded = await startEmbeddedPostgres({ dataDir, port: 0, database: 'postgres', throwaway: true });
    (globalThis as Record<string, unknown>).__RH_EMBEDDED_PG__ = { stop: embedded.stop, dataDir };
    admin = embedded.url;
  }
  await dropDatabasesOfDeadRuns(admin);
  const template = `rh_tpl_${process.pid}_${Date.now()}`;
  await withAdminClient((c) => c.query(`CREATE DATABASE ${template}`), admin);
  const dataSource = new DataSource(buildDataSourceOptions(urlForDatabase(admin, template), 2));
  await dataSource.initialize();
  try {
    await migrateAndSeed(dataSource);
  } finally {
    await dataSource.destroy();
  }
  process.env.TEST_PG_ADMIN_URL = admin;
  process.env.TEST_PG_TEMPLATE = template;
}
