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

/** Clones are named after this run's template, so the global teardown finds every one of them. */
export function clonePrefix(template = templateName()): string {
  return `${template.replace(/^rh_tpl_/, 'rh_t_')}_`;
}

/**
 * A fresh database cloned from the migrated template: one per test file, so files run in parallel.
 * It is not dropped when the file ends: DROP DATABASE forces a checkpoint, which took 1-3 s per
 * file while the other worker's database was busy. The global teardown drops every clone of the run
 * at once (or, with the embedded PostgreSQL, removes the whole server).
 */
export async function createTestDatabase(): Promise<{ url: string; name: string }> {
  const name = `${clonePrefix()}${randomBytes(4).toString('hex')}`;
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
  return { name, url: urlForDatabase(adminUrl(), name) };
}
