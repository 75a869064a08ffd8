import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import WebSocket from 'ws';
import { findFreePort } from '../../src/database/embedded-postgres';
import { MIGRATIONS } from '../../src/database/migrations';
import { BUILT_CLI, BUILT_MAIN, ensureFreshBuild } from '../support/build';
import { createTestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';

let workDir = tmpdir();

interface Server {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** The environment of a user's shell, minus what the test harness set for itself. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(DATABASE_URL|REDIS_URL|TEST_PG_|JEST_|OTP_DEV_FIXED_CODE|NODE_ENV|PORT|HOST)/.test(name)) delete env[name];
  }
  return { ...env, NODE_ENV: 'test', LOG_LEVEL: 'info', JWT_SECRET: 'process-test-secret-of-at-least-32-bytes', ...extra };
}

function run(env: NodeJS.ProcessEnv, port = 0, cliArgs?: string[]): Server {
  const args = cliArgs ? [BUILT_CLI, ...cliArgs] : [BUILT_MAIN];
  // The test's temporary directory as working directory: a developer's ./.env must not leak in.
  const child = spawn(process.execPath, args, { env, cwd: workDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, output: () => output, exited };
}

async function start(extra: Record<string, string>): Promise<Server> {
  const port = await findFreePort();
  const server = run(cleanEnv({ ...extra, PORT: String(port), HOST: '127.0.0.1' }), port);
  // Until the liveness probe answers (production's log is buffered, so the log is no signal), or the process exits.
  const live = async (): Promise<boolean> => (await fetch(`http://127.0.0.1:${port}/health/live`).catch(() => undefined))?.ok === true;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  try {
    await waitFor('the server live', async () => exitCode !== undefined || (await live()), 60_000);
  } catch (err) {
    server.child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}:\n${server.output()}`);
  }
  if (exitCode !== undefined) throw new Error(`server exited with ${exitCode}:\n${server.output()}`);
  return server;
}

async function stop(server: Server, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  server.child.kill(signal);
  return server.exited;
}

async function categories(server: Server): Promise<Array<{ code: string }>> {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/rides/categories`);
  expect(res.status).toBe(200);
  return (await res.json()) as Array<{ code: string }>;
}

/** The start-up line names where to go; each address answers (HTTP: not 404; the live path: a WebSocket refusing the missing token). */
async function expectEveryAddressServed(server: Server): Promise<void> {
  const line = server
    .output()
    .split('\n')
    .find((l) => l.includes('Listening on'));
  expect(line).toBeDefined();
  const urls = [...line!.matchAll(/(https?|ws):\/\/[^\s,;)"]+/g)].map((m) => m[0]);
  expect(urls.map((u) => new URL(u).pathname)).toEqual(['/docs', '/docs-json', '/api/v1/rides/categories', '/health', '/console', '/api/v1/ws/rides/live']);
  for (const url of urls) {
    const local = url.replace('localhost', '127.0.0.1');
    if (url.startsWith('ws:')) {
      const socket = new WebSocket(local);
      const code = await new Promise<number>((resolve, reject) => {
        socket.once('close', (c) => resolve(c));
        socket.once('unexpected-response', (_req, res) => reject(new Error(`${url}: HTTP ${res.statusCode}`)));
        socket.once('error', () => undefined);
      });
      expect({ url, code }).toEqual({ url, code: 4401 });
    } else {
      const res = await fetch(local);
      expect({ url, notFound: res.status === 404 }).toEqual({ url, notFound: false });
    }
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

describe('the built server as a process (node dist/src/main.js)', () => {
  let root: string;
  let dataDir: string;
  const running: Server[] = [];

  beforeAll(() => {
    ensureFreshBuild();
    root = mkdtempSync(join(tmpdir(), 'rh-process-'));
    // As root, the embedded PostgreSQL runs as an unprivileged user that must reach the data directory.
    chmodSync(root, 0o755);
    dataDir = join(root, 'pg');
    workDir = root;
  }, 120_000);

  afterAll(async () => {
    // After a failed test: SIGTERM first, so that the embedded PostgreSQL is not orphaned.
    for (const server of running.filter((s) => s.child.exitCode === null)) {
      server.child.kill('SIGTERM');
      const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
      await server.exited;
      clearTimeout(timer);
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('without DATABASE_URL: starts an embedded PostgreSQL, migrates, serves, publishes its URL; SIGTERM stops all and exits 0', async () => {
    const server = await start({ EMBEDDED_PG_DATA_DIR: dataDir });
    running.push(server);
    expect((await categories(server)).map((c) => c.code)).toEqual(['economy', 'comfort', 'business', 'van', 'delivery']);

    const urlFile = `${dataDir}.url`;
    const url = readFileSync(urlFile, 'utf8').trim();
    expect(url).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/ride_hailing$/);
    const client = new Client({ connectionString: url });
    await client.connect();
    const [{ count }] = (await client.query('SELECT count(*)::int AS count FROM schema_migrations')).rows;
    await client.end();
    expect(count).toBe(MIGRATIONS.length);

    // The operator CLI reaches the running server's embedded database through the URL file.
    const cli = run(cleanEnv({ EMBEDDED_PG_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), 0, ['promo:create', 'PROCESS10', '--percent', '10']);
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toMatch(/^Created promo code PROCESS10 \(id \d+\): 10% off/);
    const check = new Client({ connectionString: url });
    await check.connect();
    expect((await check.query(`SELECT 1 FROM promo_codes WHERE code = 'PROCESS10'`)).rowCount).toBe(1);
    await check.end();

    await expectEveryAddressServed(server);

    expect(await stop(server, 'SIGTERM')).toBe(0);
    expect(server.output()).toContain('Applied database migrations');
    expect(server.output()).toContain('Shutdown complete');
    expect(existsSync(urlFile)).toBe(false);
    expect(existsSync(join(dataDir, 'postmaster.pid'))).toBe(false);
    expect(await canConnect(url)).toBe(false);
  }, 120_000);

  it('a second start reuses the data directory (no migrations applied) and SIGINT exits 0', async () => {
    const server = await start({ EMBEDDED_PG_DATA_DIR: dataDir });
    running.push(server);
    expect(await categories(server)).toHaveLength(5);
    expect(await stop(server, 'SIGINT')).toBe(0);
    expect(server.output()).toContain('Embedded PostgreSQL started');
    expect(server.output()).not.toContain('Applied database migrations');
    expect(existsSync(join(dataDir, 'postmaster.pid'))).toBe(false);
  }, 120_000);

  it('with DATABASE_URL: uses that server and starts no embedded one', async () => {
    // The clone is dropped with the run's others by the global teardown.
    const database = await createTestDatabase();
    const otherDir = join(root, 'unused');
    const server = await start({ DATABASE_URL: database.url, EMBEDDED_PG_DATA_DIR: otherDir });
    running.push(server);
    expect(await categories(server)).toHaveLength(5);
    expect(await stop(server)).toBe(0);
    expect(server.output()).not.toContain('Embedded PostgreSQL');
    expect(existsSync(otherDir)).toBe(false);
  }, 60_000);

  it('a plain development start: the sign-in line, then a sent code, are in the log at once (not at shutdown)', async () => {
    const database = await createTestDatabase();
    const server = await start({ DATABASE_URL: database.url, NODE_ENV: 'development' });
    running.push(server);
    await waitFor('the sign-in line', () => server.output().includes('Sign-in: POST /api/v1/auth/send-otp'));
    const phone = `+1555${String(Date.now() % 10_000_000).padStart(7, '0')}`;
    const post = (path: string, body: object): Promise<Response> =>
      fetch(`http://127.0.0.1:${server.port}/api/v1/auth/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('send-otp', { phone })).status).toBe(200);
    // Production buffers 4 KB before writing: this line would then reach the log only at shutdown.
    const logged = await waitFor('the code in the log', () => new RegExp(`OTP for \\${phone}: (\\d+)`).exec(server.output()));
    expect((await post('verify-otp', { phone, otp: logged[1] })).status).toBe(200);
    expect(await stop(server)).toBe(0);
  }, 60_000);

  it('a start-up failure after the database started (port taken) stops it and exits 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const server = run(cleanEnv({ EMBEDDED_PG_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' }));
      running.push(server);
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain('Start-up failed');
      expect(existsSync(join(dataDir, 'postmaster.pid'))).toBe(false);
      expect(existsSync(`${dataDir}.url`)).toBe(false);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('SIGTERM during start-up (database up, app not yet listening) stops everything and exits 0', async () => {
    const freshDir = join(root, 'pg-early');
    const server = run(cleanEnv({ EMBEDDED_PG_DATA_DIR: freshDir, PORT: String(await findFreePort()), HOST: '127.0.0.1' }));
    running.push(server);
    await waitFor('the database up', () => existsSync(`${freshDir}.url`) || server.child.exitCode !== null, 60_000);
    expect(existsSync(`${freshDir}.url`)).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(join(freshDir, 'postmaster.pid'))).toBe(false);
    expect(existsSync(`${freshDir}.url`)).toBe(false);
  }, 60_000);

  it('after a server was killed (kill -9), the next start stops the orphaned PostgreSQL and starts', async () => {
    const orphanDir = join(root, 'pg-orphan');
    const killed = await start({ EMBEDDED_PG_DATA_DIR: orphanDir });
    running.push(killed);
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(existsSync(join(orphanDir, 'postmaster.pid'))).toBe(true);

    const server = await start({ EMBEDDED_PG_DATA_DIR: orphanDir });
    running.push(server);
    expect(await categories(server)).toHaveLength(5);
    expect(await stop(server)).toBe(0);
    expect(server.output()).toContain('Stopping an orphaned PostgreSQL');
    expect(existsSync(join(orphanDir, 'postmaster.pid'))).toBe(false);
  }, 90_000);

  it('the CLI: help exits 0, an unknown command exits 2, a refused command exits 1 with its message', async () => {
    const env = cleanEnv({ EMBEDDED_PG_DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    const help = run(env, 0, ['help']);
    expect(await help.exited).toBe(0);
    expect(help.output()).toContain('wallet:credit <userId> <amount> --reason');
    const unknown = run(env, 0, ['driver:fire', '1']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.output()).toContain('Error: Unknown command "driver:fire"');
    const refused = run(env, 0, ['user:block', '424242']);
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain('Error: User not found');
    // With no server running, the CLI started the embedded database itself and stopped it again.
    expect(existsSync(join(dataDir, 'postmaster.pid'))).toBe(false);
    expect(existsSync(`${dataDir}.url`)).toBe(false);
  }, 60_000);

  it.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a whole number (got "abc")'],
    [{ NODE_ENV: 'production', JWT_SECRET: '' }, 'Invalid configuration: JWT_SECRET is required when NODE_ENV=production'],
    [{ DATABASE_URL: 'mysql://localhost/x' }, 'Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL'],
  ])(
    'a bad environment (%j) prints the variable and exits non-zero without starting anything',
    async (extra, message) => {
      const server = run(cleanEnv({ EMBEDDED_PG_DATA_DIR: join(root, 'never'), ...extra }));
      running.push(server);
      const code = await server.exited;
      expect(code).toBe(1);
      expect(server.output()).toContain(message);
      expect(existsSync(join(root, 'never'))).toBe(false);
    },
    30_000,
  );
});
