import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { withAdminClient } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const admin = process.env.TEST_PG_ADMIN_URL;
  const template = process.env.TEST_PG_TEMPLATE;
  if (admin && template) {
    // Test files drop their own databases; the template goes last.
    await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`), admin).catch(() => undefined);
  }
  const embedded = (globalThis as Record<string, unknown>).__RH_EMBEDDED_PG__ as
    | { stop: () => Promise<void>; dataDir: string }
    | undefined;
  if (embedded) {
    await embedded.stop();
    rmSync(dirname(embedded.dataDir), { recursive: true, force: true });
  }
}
