import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '../../src/database/embedded-postgres';
import { BUILT_MAIN, ensureFreshBuild } from '../support/build';
import { createTestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';

/**
 * Preloaded into the server: each SIGUSR2 injects one failure no code path catches, first a
 * rejected promise nobody awaits, then an exception thrown from a timer.
 */
const PROBE = `
let count = 0;
process.on('SIGUSR2', () => {
  count += 1;
  if (count === 1) Promise.reject(new Error('probe rejection'));
  else setTimeout(() => { throw new Error('probe exception'); }, 0);
});
`;

async function until(check: () => boolean | Promise<boolean>, what: string, output: () => string, ms = 60_000): Promise<void> {
  await waitFor(what, check, ms).catch(() => {
    throw new Error(`${what} did not happen in time:\n${output()}`);
  });
}

async function live(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health/live`)).ok;
  } catch {
    return false;
  }
}

describe('last-resort handlers of the built server (node dist/src/main.js)', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    ensureFreshBuild();
    dir = mkdtempSync(join(tmpdir(), 'rh-last-resort-'));
    writeFileSync(join(dir, 'probe.js'), PROBE);
    database = await createTestDatabase();
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs an unhandled rejection and keeps serving; logs an uncaught exception, shuts down and exits 1', async () => {
    const port = await findFreePort();
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) if (/^(REDIS_URL|JEST_|NODE_OPTIONS)/.test(name)) delete env[name];
    Object.assign(env, {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      JWT_SECRET: 'last-resort-test-secret-of-at-least-32-bytes',
      DATABASE_URL: database.url,
      RUN_MIGRATIONS: 'false',
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    const server = spawn(process.execPath, ['--require', join(dir, 'probe.js'), BUILT_MAIN], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child = server;
    let output = '';
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    const log = (): string => output;

    await until(() => live(port), 'start-up', log);

    server.kill('SIGUSR2');
    await until(() => output.includes('Unhandled promise rejection'), 'logging the rejection', log, 10_000);
    expect(output).toContain('probe rejection');
    expect(await live(port)).toBe(true);
    expect(server.exitCode).toBeNull();

    server.kill('SIGUSR2');
    expect(await exited).toBe(1);
    expect(output).toMatch(/"level":60.*Uncaught exception: probe exception; shutting down/);
    expect(output).toContain('Shutdown complete');
  }, 120_000);
});
