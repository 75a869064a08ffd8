import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Set by the global setup for every worker. */
export function adminUrl(): string {
  const url = process.env.TEST_PG_ADMIN_URL;
  if (!url) throw new Error('TEST_PG_ADMIN_URL is not set: run the tests through jest (global setup)');
  return url;
}

export function templateName(): string {
  const name = process.env.TEST_PG_TEMPLATE;
  if (!name) throw new Error('TEST_PG_TEMPLATE is not set: run the tests through jest (global setup)');
  return name;
}

export function urlForDatabase(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdminClient<T>(fn: (client: Client) => Promise<T>, base = adminUrl()): Promise<T> {
  const client = new Client({ connectionString: base });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh database cloned from the migrated template: one per test file, so files run in parallel. */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `rh_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdminClient(async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name} TEMPLATE ${templateName()}`);
        return;
      } catch (err) {
        // Two workers cloning the template at the same instant: the loser retries.
        if (attempt < 20 && /being accessed by other users/.test(String(err))) {
          await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
          continue;
        }
        throw err;
      }
    }
  });
  return {
    name,
    url: urlForDatabase(adminUrl(), name),
    drop: () => withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
