import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export interface PostgresProcess {
  url: string;
  /** Stops PostgreSQL (a fast shutdown: sessions are terminated) and waits for it. */
  stop(): Promise<void>;
}

const ROOT = join(__dirname, '..', '..');
const EMBEDDED_POSTGRES_SOURCE = join(ROOT, 'src', 'database', 'embedded-postgres.ts');

/**
 * Runs in the child: src/database/embedded-postgres.ts, transpiled as it is required (no type
 * check, no build: tsconfig's isolatedModules makes a file-by-file transpile safe), stopped on SIGTERM.
 */
const CHILD_SCRIPT = `
const ts = require('typescript');
const { readFileSync } = require('node:fs');
const options = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2023, esModuleInterop: true };
require.extensions['.ts'] = (module, filename) =>
  module._compile(ts.transpileModule(readFileSync(filename, 'utf8'), { fileName: filename, compilerOptions: options }).outputText, filename);
const { startEmbeddedPostgres } = require(process.argv[1]);
const [dataDir, port, database] = process.argv.slice(2);
startEmbeddedPostgres({ dataDir, port: Number(port), database }).then((db) => {
  process.stdout.write('READY ' + db.url + '\\n');
  setInterval(() => undefined, 60000);
  process.on('SIGTERM', () => db.stop().then(() => process.exit(0), () => process.exit(1)));
}, (err) => {
  process.stderr.write(String(err && err.message || err) + '\\n');
  process.exit(1);
});`;

/**
 * An embedded PostgreSQL in a child process, for tests that stop and restart it while the app runs
 * (embedded-postgres is an ES module that Jest's module system cannot import).
 */
export async function startPostgresProcess(dataDir: string, port: number, database: string): Promise<PostgresProcess> {
  const child: ChildProcess = spawn(process.execPath, ['-e', CHILD_SCRIPT, EMBEDDED_POSTGRES_SOURCE, dataDir, String(port), database], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /READY (\S+)/.exec(output);
      if (ready) resolve(ready[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`embedded PostgreSQL exited with ${code}: ${output}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
