import { DriversService } from '../../src/modules/drivers/drivers.service';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { PushChannel } from '../../src/modules/realtime/push/push-channel';
import { Presence } from '../../src/modules/realtime/presence/presence';
import { RedisPresence } from '../../src/modules/realtime/presence/redis-presence';
import { accept, bookRide, PICKUP, placeBid } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { FakeFcm, startFakeFcm } from '../support/fake-fcm';
import { describeWithRedis, startRedis, TestRedis } from '../support/redis';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { LiveClient } from './live-client';

const NEAR = { latitude: PICKUP.latitude + 0.001, longitude: PICKUP.longitude };

describeWithRedis('push with several instances: one push per receiver per event, presence shared over Redis', () => {
  let dir: string;
  let fcm: FakeFcm;
  let redis: TestRedis;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'push-instances-'));
    fcm = await startFakeFcm(dir);
    redis = await startRedis();
    const env = { REDIS_URL: redis.url, FCM_SERVICE_ACCOUNT_FILE: fcm.serviceAccountFile, FCM_API_BASE: fcm.url };
    first = await startTestApp({ env });
    second = await startTestApp({ databaseUrl: first.databaseUrl, env });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await redis?.stop();
    await fcm?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const settled = async (): Promise<void> => {
    await first.get(PushChannel).idle();
    await second.get(PushChannel).idle();
  };
  const pushesTo = (token: string) => fcm.delivered.filter((m) => m.token === token).map((m) => (m.body.message as { data: { type: string } }).data.type);

  async function withToken(user: TestUser, token: string): Promise<void> {
    await first.db.query(`UPDATE users SET device_token = $2 WHERE id = $1`, [user.id, token]);
  }

  async function onlineDriver(app: TestApp): Promise<TestUser> {
    const driver = await createUser(app, { role: 'driver' });
    await app.get(DriversService).setOnline(driver.id, true);
    expect((await app.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: NEAR })).statusCode).toBe(200);
    return driver;
  }

  it('every instance receives every event, yet each receiver without a socket gets exactly one push', async () => {
    const passenger = await createUser(first);
    await withToken(passenger, 'fcm-multi-passenger');
    const winner = await onlineDriver(first);
    const other = await onlineDriver(second);
    // A socket on each instance: its messages show that the instance has handled the event.
    const onFirst = await LiveClient.connect(first, winner.accessToken);
    const onSecond = await LiveClient.connect(second, other.accessToken);
    try {
      const ride = await bookRide(first, passenger);
      await onFirst.next('ride_requested');
      await onSecond.next('ride_requested');
      const bid = await placeBid(second, winner, ride.id, 10); // published on `second`
      await placeBid(first, other, ride.id, 12); // published on `first`
      expect((await accept(second, passenger, ride.id, bid.id)).statusCode).toBe(200);
      await onFirst.next('ride_accepted');
      await onSecond.next('ride_accepted');
      await settled();
      expect(pushesTo('fcm-multi-passenger')).toEqual(['bid_submitted', 'bid_submitted', 'ride_accepted']);
    } finally {
      await onFirst.close();
      await onSecond.close();
    }
  });

  it('a receiver with a socket on another instance gets no push; once it disconnects, it does', async () => {
    const passenger = await createUser(first);
    await withToken(passenger, 'fcm-present-elsewhere');
    const socket = await LiveClient.connect(first, passenger.accessToken);
    const ride = await bookRide(first, passenger);
    await placeBid(second, await onlineDriver(second), ride.id, 10); // published on `second`, socket on `first`
    await socket.next('bid_submitted');
    await settled();
    expect(pushesTo('fcm-present-elsewhere')).toEqual([]);

    await socket.close();
    const presence = second.get(Presence);
    await until(async () => !(await presence.elsewhere([passenger.id])).has(passenger.id), 'the disconnect to reach Redis');
    await placeBid(second, await onlineDriver(second), ride.id, 11);
    await settled();
    expect(pushesTo('fcm-present-elsewhere')).toEqual(['bid_submitted']);
  });
});

describeWithRedis('shared presence (Redis) of an instance that crashed', () => {
  let redis: TestRedis;
  let client: Redis;
  const prefix = `rh-test:presence:${process.pid}`;

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('stops counting its sockets within its TTL, while a live instance keeps counting', async () => {
    const ttlMs = 400;
    const reader = new RedisPresence(client, prefix, { ttlMs });
    // Never started: no renewals, as if the process had died right after its users connected.
    const crashed = new RedisPresence(client, prefix, { ttlMs });
    const alive = new RedisPresence(client, prefix, { ttlMs });
    alive.onModuleInit();
    try {
      crashed.online(7);
      alive.online(8);
      await until(async () => (await reader.elsewhere([7, 8])).size === 2, 'both users to be seen');
      const gone = await until(async () => !(await reader.elsewhere([7])).has(7), 'the crashed instance to be forgotten', 5000);
      expect(gone).toBeLessThan(5000);
      await new Promise((resolve) => setTimeout(resolve, ttlMs * 2));
      expect(await reader.elsewhere([7, 8])).toEqual(new Set([8]));
      alive.offline(8);
      await until(async () => (await reader.elsewhere([8])).size === 0, 'the disconnect');
      alive.online(9);
      await until(async () => (await reader.elsewhere([9])).size === 1, 'a new connection');
    } finally {
      await alive.beforeApplicationShutdown();
    }
    // A clean shutdown takes the instance's users out at once.
    expect(await reader.elsewhere([9])).toEqual(new Set());
  });
});
