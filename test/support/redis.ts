import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import Redis from 'ioredis';

export interface TestRedis {
  url: string;
  client: Redis;
  stop(): Promise<void>;
  /** For a spawned server: settles when its process has exited (after stop()). */
  exited?: Promise<void>;
}

export function redisServerOnPath(): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, 'redis-server')));
}

/**
 * Where Redis-backed tests get their server: REDIS_URL when set (CI's second pass), else a throwaway
 * redis-server when one is installed, else none and those tests say why they did not run.
 */
export const REDIS_SOURCE: 'url' | 'binary' | undefined = process.env.REDIS_URL ? 'url' : redisServerOnPath() ? 'binary' : undefined;

/**
 * `describe` when a Redis server can be had; otherwise the block is skipped with the reason printed
 * (a developer's machine without Redis). In CI a missing Redis is an error, so CI never runs less.
 */
export function describeWithRedis(name: string, fn: () => void): void {
  if (REDIS_SOURCE) {
    describe(name, fn);
    return;
  }
  if (process.env.CI) throw new Error(`"${name}" needs Redis and CI has none: set REDIS_URL or install redis-server`);
  console.warn(`Not run: "${name}" needs Redis: set REDIS_URL or install redis-server.`);
  describe.skip(name, fn);
}

/** Like describeWithRedis, for tests that must start and stop their own redis-server. */
export function describeWithRedisServer(name: string, fn: () => void): void {
  if (redisServerOnPath()) {
    describe(name, fn);
    return;
  }
  if (process.env.CI) throw new Error(`"${name}" needs redis-server on PATH and CI has none`);
  console.warn(`Not run: "${name}" needs redis-server on PATH (it stops Redis mid-test).`);
  describe.skip(name, fn);
}

export async function startRedis(): Promise<TestRedis> {
  if (process.env.REDIS_URL) {
    const client = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1 });
    await client.ping();
    return { url: process.env.REDIS_URL, client, stop: async () => client.disconnect() };
  }
  return spawnRedis();
}

/** A port nobody listens on now, chosen by the OS: a random guess could land on another test's server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A throwaway redis-server (no persistence), with a connected client: on `port` (a restart) or a free one. */
export async function spawnRedis(port?: number): Promise<TestRedis> {
  port ??= await freePort();
  const server: ChildProcess = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  for (let attempt = 0; ; attempt += 1) {
    // The client connects only once the server listens, so it never holds a refused first connect.
    if (!(await portAnswers(port)) && attempt <= 50) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return {
        url: `redis://127.0.0.1:${port}`,
        client,
        stop: async () => {
          client.disconnect();
          server.kill();
        },
        exited,
      };
    } catch (err) {
      client.disconnect();
      if (attempt > 50) {
        server.kill();
        throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
