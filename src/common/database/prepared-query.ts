import { createHash } from 'node:crypto';
import { EntityManager, QueryFailedError } from 'typeorm';

interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs `text` as a named prepared statement: PostgreSQL plans it once per connection instead of on
 * every call. For the long data-modifying CTEs of ride writes, planning was most of the statement's
 * CPU (bench/step-function.js: 2.1 against 0.5 ms of backend CPU per `arrive`; see docs/decisions.md).
 * Inside a transaction it runs on the transaction's connection, else on a pooled one. The name is a
 * hash of the text, so one name never stands for two statements. Errors come back as TypeORM's
 * QueryFailedError, as from manager.query, so retries and constraint checks read them the same way.
 */
export async function queryPrepared<T>(manager: EntityManager, text: string, values: unknown[]): Promise<T[]> {
  const name = `q${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  const runner = manager.queryRunner as unknown as { databaseConnection?: PgQueryable; connect(): Promise<PgQueryable> } | undefined;
  const target: PgQueryable = runner
    ? (runner.databaseConnection ?? (await runner.connect()))
    : (manager.connection.driver as unknown as { master: PgQueryable }).master;
  try {
    return (await target.query({ name, text, values })).rows as T[];
  } catch (err) {
    throw new QueryFailedError(text, values, err as Error);
  }
}
