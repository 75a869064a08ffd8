import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { clonePrefix, withAdminClient } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const admin = process.env.TEST_PG_ADMIN_URL;
  const template = process.env.TEST_PG_TEMPLATE;
  const embedded = (globalThis as Record<string, unknown>).__RH_EMBEDDED_PG__ as { stop: () => Promise<void>; dataDir: string } | undefined;
  if (embedded) {
    // The clones and the template go with the server's directory.
    await embedded.stop();
    rmSync(dirname(embedded.dataDir), { recursive: true, force: true });
    return;
  }
  if (admin && template) await dropRunDatabases(admin, template).catch(() => undefined);
}

/** Every clone of this run (test files leave theirs), a few at a time so their checkpoints coincide, then the template. */
async function dropRunDatabases(admin: string, template: string): Promise<void> {
  const prefix = clonePrefix(template);
  const rows = await withAdminClient((c) => c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [prefix]), admin);
  const names = rows.rows.map((r) => r.datname);
  const drop = (name: string) => withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`), admin).catch(() => undefined);
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let name = names.pop(); name !== undefined; name = names.pop()) await drop(name);
    }),
  );
  await drop(template);
}

/**
 * A run cut short (Ctrl-C) leaves its template and clones behind. On a server on this machine, the
 * next run drops those of runs whose process (the pid in the name) is gone; runs still going, of
 * this checkout or another, keep theirs. A remote server's runs may be other machines' pids: left alone.
 */
export async function dropDatabasesOfDeadRuns(admin: string): Promise<void> {
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(admin).hostname)) return;
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  };
  const rows = await withAdminClient(
    (c) => c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname ~ '^rh_(tpl|t)_[0-9]+_[0-9]{13}'`),
    admin,
  );
  const dead = rows.rows.map((r) => r.datname).filter((name) => !alive(Number(/^rh_(?:tpl|t)_(\d+)_/.exec(name)![1])));
  for (const name of dead) await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`), admin).catch(() => undefined);
}
