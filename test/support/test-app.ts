import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { DataSource } from 'typeorm';
import { createApp, CreateAppOptions } from '../../src/bootstrap/create-app';
import { AppConfig } from '../../src/config/app-config';
import { createTestDatabase } from './test-database';

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-bytes-long!!';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  db: DataSource;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** ws://127.0.0.1:<port> */
  wsUrl: string;
  databaseUrl: string;
  request(options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  get<T>(token: abstract new (...args: never[]) => T): T;
  close(): Promise<void>;
}

/** Defaults that keep tests fast and deterministic; a test passes overrides for what it checks. */
const TEST_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  JWT_SECRET: TEST_JWT_SECRET,
  RUN_MIGRATIONS: 'false',
  DB_POOL_SIZE: '10',
  DRIVER_AUTO_APPROVE: 'true',
  AUTH_RATE_LIMIT_PER_IP_PER_MINUTE: '0',
  BOOKING_RATE_LIMIT_PER_HOUR: '0',
  BID_RATE_LIMIT_PER_MINUTE: '0',
  OTP_RESEND_COOLDOWN_SECONDS: '0',
  OTP_MAX_PER_HOUR: '0',
  UPLOAD_DIR: '.data/test-uploads',
  // Each cache allocates its whole LRU index at start-up: the production sizes (620,000 entries)
  // cost every app about 0.1 s of CPU and 22 MB, and 20,000 each still 65 ms. No test holds more than
  // about a thousand users; an evicted cache entry is a database read, never a wrong answer (the live
  // positions, which are no cache, keep room for 20,000 drivers).
  USER_STATE_CACHE_MAX_ENTRIES: '5000',
  RIDE_CACHE_MAX_ENTRIES: '5000',
  DRIVER_RIDE_CACHE_MAX_ENTRIES: '5000',
  DRIVER_CACHE_MAX_ENTRIES: '5000',
  ACCESS_TOKEN_CACHE_MAX_ENTRIES: '5000',
  LIVE_POSITIONS_MAX_ENTRIES: '20000',
  SHARED_RIDE_CACHE_MAX_ENTRIES: '5000',
};

export interface StartTestAppOptions {
  env?: Record<string, string | undefined>;
  /** Reuse a database (for several instances sharing one); a new one is created otherwise. */
  databaseUrl?: string;
  /** Extra Nest modules mounted beside AppModule (probe controllers for framework-level tests). */
  modules?: CreateAppOptions['modules'];
  /** A logger to read what the app logs (LOG_LEVEL is then the logger's own level). */
  logger?: CreateAppOptions['logger'];
}

/** Boots the real application on a real port against its own database cloned from the template. */
export async function startTestApp(options: StartTestAppOptions = {}): Promise<TestApp> {
  const database = options.databaseUrl ? undefined : await createTestDatabase();
  const databaseUrl = options.databaseUrl ?? database!.url;
  // Instances that share a database share a Redis namespace; other test files never see their events.
  const redisKeyPrefix = `rh-test:${new URL(databaseUrl).pathname.slice(1)}`;
  const env: Record<string, string | undefined> = {
    ...TEST_ENV,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    DATABASE_URL: databaseUrl,
    ...options.env,
  };
  const config = AppConfig.fromEnv(env);
  const app = await createApp(config, { modules: options.modules, logger: options.logger });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    config,
    db: app.get(DataSource),
    baseUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    databaseUrl,
    request: ({ token, headers, ...rest }) => app.inject({ ...rest, headers: { ...(headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) } }),
    get: (token) => app.get(token as never),
    close: async () => {
      await app.close();
    },
  };
}
