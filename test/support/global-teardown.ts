import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { clonePrefix, withAdminClient } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const admin = process.env.TEST_PG_ADMIN_URL;
  const template = process.env.TEST_PG_TEMPLATE;
  const embedded = (globalThis as Record<string, unknown>).__RH_EMBEDDED_PG__ as
    | { stop: () => Promise<void>; dataDir: string }
    | undefined;
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
