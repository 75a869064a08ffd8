import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { exportOpenApiDocument } from '../bootstrap/openapi';

/** `npm run openapi [-- <file>]`: writes the OpenAPI document (default openapi.json); needs no database. */
async function main(): Promise<void> {
  const target = resolve(process.argv[2] ?? 'openapi.json');
  const document = await exportOpenApiDocument();
  writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(`Wrote ${target}: ${Object.keys(document.paths).length} paths, OpenAPI ${document.openapi}\n`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
