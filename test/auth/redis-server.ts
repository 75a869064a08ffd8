import { ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';

export interface TestRedis {
  url: string;
  client: Redis;
  stop(): Promise<void>;
}

/** A throwaway redis-server on a random port (no persistence), with a connected client. */
export async function startRedis(): Promise<TestRedis> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server: ChildProcess = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let attempt = 0; ; attempt += 1) {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
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
