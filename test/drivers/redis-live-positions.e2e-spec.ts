import type { PendingLocation } from '../../src/modules/drivers/drivers.repository';
import { RedisLivePositionStore } from '../../src/modules/drivers/redis-live-positions';
import { describeWithRedis, startRedis, TestRedis } from '../support/redis';

function at(driverId: number, latitude: number, longitude: number, ageMs = 0): PendingLocation {
  return { driverId, latitude, longitude, heading: 90, speed: null, accuracy: 5, at: new Date(Date.now() - ageMs) };
}

/** The Redis store against a real server: what it keeps, where, and how it forgets. */
describeWithRedis('RedisLivePositionStore', () => {
  let redis: TestRedis;
  const prefix = `rh-test:live-positions:${process.pid}:${Date.now()}`;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    const keys = await redis.client.keys(`${prefix}*`);
    if (keys.length > 0) await redis.client.del(...keys);
    await redis?.stop();
  });

  it('keeps the full latest position under the prefix', async () => {
    const store = new RedisLivePositionStore(redis.client, `${prefix}:a`, 60_000);
    await store.save(at(1, 52.52, 13.405));
    await store.save(at(2, 52.5599, 13.405));
    expect(await store.latest(1)).toMatchObject({ driverId: 1, latitude: 52.52, longitude: 13.405, heading: 90, speed: null, accuracy: 5 });
    expect(await store.latest(99)).toBeUndefined();
    expect((await redis.client.keys(`${prefix}:a:*`)).sort()).toEqual([`${prefix}:a:drivers:latest`, `${prefix}:a:drivers:seen`]);
    // Near the poles the position is kept in full.
    await store.save(at(4, 89.5, 10));
    expect(await store.latest(4)).toMatchObject({ latitude: 89.5, longitude: 10 });
    // Another namespace sees none of it.
    expect(await new RedisLivePositionStore(redis.client, `${prefix}:b`, 60_000).latest(1)).toBeUndefined();
  });

  it('prune forgets drivers past the max age (in batches) and takes them back on the next heartbeat', async () => {
    const store = new RedisLivePositionStore(redis.client, `${prefix}:d`, 1000);
    for (let id = 1; id <= 1500; id += 1) await store.save(at(id, 10, 10, 5000));
    await store.save(at(2000, 10, 10));
    await store.prune();
    expect(await redis.client.zcard(`${prefix}:d:drivers:seen`)).toBe(1);
    expect(await redis.client.hlen(`${prefix}:d:drivers:latest`)).toBe(1);
    expect(await store.latest(1)).toBeUndefined();
    expect(await store.latest(2000)).toBeDefined();
    await store.save(at(1, 52.52, 13.405));
    expect(await store.latest(1)).toMatchObject({ latitude: 52.52 });
  });
});
