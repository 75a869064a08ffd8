import { types } from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { join } from 'node:path';
import { MIGRATIONS } from './migrations';

// bigint (money in minor units, counts) and numeric as JS numbers: every value we store fits
// well inside 2^53, and strings would leak into arithmetic.
types.setTypeParser(types.builtins.INT8, (value) => Number(value));
types.setTypeParser(types.builtins.NUMERIC, (value) => Number(value));

/**
 * Bounds that keep a database outage from turning into hanging requests: a request waiting for a
 * pool connection gives up after CONNECT_TIMEOUT_MS (the filter answers 503), and no statement
 * runs longer than STATEMENT_TIMEOUT_MS (no request of this service needs more than a fraction of
 * it; a longer one means a stuck lock or an overloaded server). Constants, not settings: they are
 * safety nets, not tuning knobs. A migration that needs longer can `SET LOCAL statement_timeout`.
 */
const CONNECT_TIMEOUT_MS = 2500;
const STATEMENT_TIMEOUT_MS = 15_000;

/** One definition of how we talk to PostgreSQL, shared by the app, the CLI and the TypeORM CLI. */
export function buildDataSourceOptions(url: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    // The app registers entities per module (autoLoadEntities); the glob serves the TypeORM CLI.
    entities: [join(__dirname, '..', 'modules', '**', 'entities', '*.entity.{ts,js}'), join(__dirname, '..', 'common', '**', 'entities', '*.entity.{ts,js}')],
    // An explicit list works the same under ts-jest, ts-node and compiled JavaScript.
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    // Failed queries surface as exceptions and are logged (once) where they are handled.
    logging: false,
    extra: {
      max: poolSize,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
      application_name: 'ride-hailing',
    },
  };
}
