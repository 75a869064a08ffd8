import { EventBus } from '../../src/common/events/event-bus';
import { RedisEventBus } from '../../src/common/events/redis-event-bus';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { expectNothingMore, LiveClient } from './live-client';

const REDIS_URL = process.env.REDIS_URL;

/**
 * Two service instances sharing PostgreSQL and Redis, as behind a load balancer: a client connected
 * to one instance receives the events caused on the other. Needs a Redis server (REDIS_URL).
 */
const describeWithRedis = REDIS_URL ? describe : (): void => undefined;

describeWithRedis('live channel across two instances (Redis pub/sub)', () => {
  let first: TestApp;
  let second: TestApp;
  let passenger: TestUser;
  let driver: TestUser;

  beforeAll(async () => {
    first = await startTestApp({ env: { REDIS_URL } });
    second = await startTestApp({ databaseUrl: first.databaseUrl, env: { REDIS_URL } });
    passenger = await createUser(first);
    driver = await createUser(first, { role: 'driver' });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('runs the Redis bus on both instances', () => {
    expect(first.get(EventBus)).toBeInstanceOf(RedisEventBus);
    expect(second.get(EventBus)).toBeInstanceOf(RedisEventBus);
  });

  it('delivers an event published on one instance to sockets held by the other, once each', async () => {
    const onFirst = await LiveClient.connect(first, passenger.accessToken);
    const onSecond = await LiveClient.connect(second, passenger.accessToken);
    const driverOnFirst = await LiveClient.connect(first, driver.accessToken);
    const bid = { id: 'bid-x', amount: 10 };
    second.get(EventBus).publish('bid.submitted', { ride_id: 'ride-x', passenger_id: passenger.id, driver_id: driver.id, bid });
    for (const c of [onFirst, onSecond]) expect(await c.next()).toMatchObject({ type: 'bid_submitted', ride_id: 'ride-x', data: { bid } });
    await expectNothingMore([onFirst, onSecond, driverOnFirst]);
    await Promise.all([onFirst, onSecond, driverOnFirst].map((c) => c.close()));
  });

  it("closes a revoked user's sockets on every instance", async () => {
    const user = await createUser(first);
    const a = await LiveClient.connect(first, user.accessToken);
    const b = await LiveClient.connect(second, user.accessToken);
    first.get(EventBus).publish('user.access_revoked', { user_id: user.id, reason: 'deleted' });
    for (const c of [a, b]) expect((await c.closed).code).toBe(4403);
  });
});

if (!REDIS_URL) {
  test('two-instance live channel test: not run because REDIS_URL is not set (CI sets REDIS_URL=redis://127.0.0.1:6379)', () => {
    console.warn('test/realtime/multi-instance.e2e-spec.ts: skipped, REDIS_URL is not set. Run with REDIS_URL=redis://127.0.0.1:6379 to test two instances over Redis.');
  });
}
