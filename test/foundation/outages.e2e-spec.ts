import { captureLog } from '../support/captured-log';
import { executeCommand } from '../../src/cli/commands';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { findFreePort } from '../../src/database/embedded-postgres';
import { migrateAndSeed } from '../../src/database/migrate';
import { DEV_CODE, freshPhone, post } from '../auth/auth-helpers';
import { bookingBody, bookRide, onlineDriver, placeBid } from '../rides/ride-helpers';
import { EventBus } from '../../src/common/events/event-bus';
import { expectNothingMore, LiveClient } from '../realtime/live-client';
import { waitFor } from '../support/wait';
import { startPostgresProcess, PostgresProcess } from '../support/embedded-postgres-process';
import { createUser, TestUser } from '../support/factories';
import { describeWithRedisServer, spawnRedis, TestRedis } from '../support/redis';
import { startTestApp, TestApp } from '../support/test-app';

/** An outage answer: 503 in the error shape, with Retry-After, and quickly. */
async function expectUnavailable(call: () => Promise<LightMyRequestResponse>): Promise<void> {
  const started = Date.now();
  const res = await call();
  expect(Date.now() - started).toBeLessThan(5000);
  expect(res.statusCode).toBe(503);
  expect(res.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: expect.stringMatching(/database/) });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('database outage: 503 with Retry-After, recovery without a restart', () => {
  let root: string;
  let dataDir: string;
  let port: number;
  let pg: PostgresProcess;
  let t: TestApp;
  let passenger: TestUser;

  const me = () => t.request({ method: 'GET', url: '/api/v1/auth/me', token: passenger.accessToken });
  const rides = () => t.request({ method: 'GET', url: '/api/v1/passenger/rides', token: passenger.accessToken });
  const sendOtp = () => post(t, 'send-otp', { phone: freshPhone() });
  const book = () => t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload: bookingBody() });
  const estimate = () => t.request({ method: 'POST', url: '/api/v1/rides/estimate', token: passenger.accessToken, payload: bookingBody() });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'rh-outage-pg-'));
    // As root, PostgreSQL runs as an unprivileged user that must be able to enter this directory.
    chmodSync(root, 0o755);
    dataDir = join(root, 'data');
    port = await findFreePort();
    pg = await startPostgresProcess(dataDir, port, 'outage');
    const migrator = new DataSource(buildDataSourceOptions(pg.url, 2));
    await migrator.initialize();
    try {
      await migrateAndSeed(migrator);
    } finally {
      await migrator.destroy();
    }
    // The guard's cached user state is what lets a request that needs no query be served while the database is away.
    t = await startTestApp({ databaseUrl: pg.url, env: { USER_STATE_CACHE_MS: '5000' } });
    passenger = await createUser(t);
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await pg?.stop();
    rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('answers 503 while PostgreSQL is stopped and serves again once it is back', async () => {
    for (const call of [me, rides, sendOtp]) expect((await call()).statusCode).toBe(200);
    // No statement may run unbounded (data-source-options).
    expect(await t.db.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '15s' }]);

    expect((await estimate()).statusCode).toBe(200); // the user's state and the categories are now cached

    await pg.stop();
    // An estimate needs no query: with the user's state still cached it is served during the outage.
    expect((await estimate()).statusCode).toBe(200);
    for (const call of [me, rides, sendOtp, book]) await expectUnavailable(call);
    // A second round: connections the pool had are gone, new ones are refused; still a quick 503.
    for (const call of [me, rides, sendOtp]) await expectUnavailable(call);

    pg = await startPostgresProcess(dataDir, port, 'outage');
    for (const call of [me, rides, sendOtp]) expect((await call()).statusCode).toBe(200);

    // The booking refused during the outage left nothing behind.
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM rides WHERE passenger_id = $1`, [passenger.id]);
    expect(count).toBe(0);
    expect((await book()).statusCode).toBe(201);
    // And the money still adds up after the fault.
    expect(await executeCommand(t.app, ['ledger:check'])).toMatch(/^Ledger balanced: /);
  }, 120_000);
});

// Stops and restarts its own redis-server mid-test.
describeWithRedisServer('Redis outage: limits fall back to PostgreSQL, local events are not delayed', () => {
  let redis: TestRedis;
  let redisPort: number;
  let first: TestApp;
  let second: TestApp;
  const log = captureLog('warn');

  const env = (url: string): Record<string, string> => ({
    REDIS_URL: url,
    NODE_ENV: 'development',
    OTP_DEV_FIXED_CODE: DEV_CODE,
    AUTH_RATE_LIMIT_PER_IP_PER_MINUTE: '1000',
    OTP_RESEND_COOLDOWN_SECONDS: '30',
    OTP_MAX_PER_HOUR: '5',
  });

  beforeAll(async () => {
    redis = await spawnRedis();
    redisPort = Number(new URL(redis.url).port);
    first = await startTestApp({ env: env(redis.url), logger: log.logger });
    second = await startTestApp({ databaseUrl: first.databaseUrl, env: env(redis.url), logger: log.logger });
  });
  const clients: LiveClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await second?.close();
    await first?.close();
    await redis?.stop();
  });

  /** Timed: every call must answer well under a second while Redis is down. */
  async function quick(call: Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
    const started = Date.now();
    const res = await call;
    expect(Date.now() - started).toBeLessThan(1000);
    return res;
  }

  it('keeps the OTP endpoints and same-instance events working, and resumes cross-instance delivery', async () => {
    const passenger = await createUser(first);
    const driver = await onlineDriver(first);
    const passengerOnFirst = await LiveClient.connect(first, passenger.accessToken);
    const passengerOnSecond = await LiveClient.connect(second, passenger.accessToken);
    clients.push(passengerOnFirst, passengerOnSecond);

    await redis.stop();
    await redis.exited;
    // Wait until the instance has noticed (its readiness names Redis).
    const ready = () => first.request({ method: 'GET', url: '/health/ready' });
    await waitFor('readiness to report Redis down', async () => (await ready()).statusCode !== 200, 5000);
    expect((await ready()).statusCode).toBe(503);
    // The lost connection is in the service's log (ioredis would otherwise print it to stderr itself).
    await waitFor('the command connection to log its error', async () =>
      log.lines().some((line) => line.level === 40 && String(line.msg).startsWith('Redis connection ride-hailing-commands: ')),
    );

    // Normal answers, quickly, and the limits still hold (counted in PostgreSQL meanwhile).
    const phone = freshPhone();
    expect((await quick(post(first, 'send-otp', { phone }))).statusCode).toBe(200);
    expect((await quick(post(first, 'send-otp', { phone }))).statusCode).toBe(429);
    expect((await quick(post(first, 'verify-otp', { phone, otp: '000000' }))).statusCode).toBe(400);
    expect((await quick(post(first, 'verify-otp', { phone, otp: DEV_CODE }))).statusCode).toBe(200);

    // A socket on the publishing instance gets its event at once, not after Redis's retries.
    const ride = await bookRide(first, passenger);
    const bid = await placeBid(first, driver, ride.id, 12);
    const published = Date.now();
    expect(await passengerOnFirst.next('bid_submitted', 2000)).toMatchObject({ data: { bid: { id: bid.id } } });
    // ~300 ms, with slack for a loaded machine; before the fix it was ~3 s.
    expect(Date.now() - published).toBeLessThan(500);
    await expectNothingMore([passengerOnFirst]);

    // Redis back on the same address: both instances reconnect and resubscribe on their own.
    redis = await spawnRedis(redisPort);
    await waitForEventConnections([first, second], redis);
    while (passengerOnSecond.pending().length > 0) await passengerOnSecond.next();
    const secondDriver = await onlineDriver(second);
    const secondBid = await placeBid(second, secondDriver, ride.id, 13);
    expect(await passengerOnFirst.next('bid_submitted', 3000)).toMatchObject({ data: { bid: { id: secondBid.id } } });
    expect(await passengerOnSecond.next('bid_submitted', 3000)).toMatchObject({ data: { bid: { id: secondBid.id } } });
    await expectNothingMore([passengerOnFirst, passengerOnSecond], { across: [first, second] });
  }, 60_000);

  it('rate-limit counters in Redis do not carry over to a fresh database behind the same Redis', async () => {
    const own = await spawnRedis();
    try {
      // Same Redis namespace on purpose: only the database differs, and user ids restart in it.
      const shared = { ...env(own.url), REDIS_KEY_PREFIX: 'rh-test:outage-shared' };
      const a = await startTestApp({ env: shared });
      try {
        expect((await post(a, 'send-otp', { phone: freshPhone() })).statusCode).toBe(200);
      } finally {
        await a.close();
      }
      const b = await startTestApp({ env: shared });
      try {
        // The first user of this database has the same id as the first of the other one.
        expect((await post(b, 'send-otp', { phone: freshPhone() })).statusCode).toBe(200);
      } finally {
        await b.close();
      }
    } finally {
      await own.stop();
    }
  }, 60_000);
});

/** Until every instance's event publisher is ready on the restarted server and its subscriber has subscribed again. */
async function waitForEventConnections(apps: TestApp[], redis: TestRedis): Promise<void> {
  const channel = `${apps[0]!.config.redisKeyPrefix}:domain-events`;
  // The publisher drops what it is given before its ready check (no offline queue): its state is the condition.
  const publisherReady = (app: TestApp) => (app.get(EventBus) as unknown as { publisher: { status: string } }).publisher.status === 'ready';
  await waitFor('the instances reconnected to the restarted Redis', async () => {
    const [, subscribers] = (await redis.client.pubsub('NUMSUB', channel)) as [string, number];
    return subscribers >= apps.length && apps.every(publisherReady);
  });
}
