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
  const BERLIN = { latitude: 52.52, longitude: 13.405 };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    const keys = await redis.client.keys(`${prefix}*`);
    if (keys.length > 0) await redis.client.del(...keys);
    await redis?.stop();
  });

  it('keeps the full latest position under the prefix and finds recent drivers within the radius', async () => {
    const store = new RedisLivePositionStore(redis.client, `${prefix}:a`, 60_000);
    await store.save(at(1, 52.52, 13.405));
    await store.save(at(2, 52.5599, 13.405));
    await store.save(at(3, 48.13, 11.57));
    expect((await store.near(BERLIN, 5, 60_000)).sort()).toEqual([1, 2]);
    expect(await store.latest(1)).toMatchObject({ driverId: 1, latitude: 52.52, longitude: 13.405, heading: 90, speed: null, accuracy: 5 });
    expect(await store.latest(99)).toBeUndefined();
    expect((await redis.client.keys(`${prefix}:a:*`)).sort()).toEqual([`${prefix}:a:drivers:geo`, `${prefix}:a:drivers:latest`, `${prefix}:a:drivers:seen`]);
    // Near the poles (outside Redis geo's range) the position is still kept in full.
    await store.save(at(4, 89.5, 10));
    expect(await store.latest(4)).toMatchObject({ latitude: 89.5, longitude: 10 });
    // Another namespace sees none of it.
    expect(await new RedisLivePositionStore(redis.client, `${prefix}:b`, 60_000).near(BERLIN, 5, 60_000)).toEqual([]);
  });

  it('leaves out drivers past the max age, forgets them, and takes them back on the next heartbeat', async () => {
    const store = new RedisLivePositionStore(redis.client, `${prefix}:c`, 1000);
    await store.save(at(1, 52.52, 13.405, 1500));
    await store.save(at(2, 52.52, 13.405));
    expect(await store.near(BERLIN, 5, 1000)).toEqual([2]);
    // The search removed the expired driver from all three keys.
    expect(await redis.client.zscore(`${prefix}:c:drivers:geo`, '1')).toBeNull();
    expect(await store.latest(1)).toBeUndefined();
    await store.save(at(1, 52.52, 13.405));
    expect((await store.near(BERLIN, 5, 1000)).sort()).toEqual([1, 2]);
  });

  it('prune forgets expired drivers no search has met', async () => {
    const store = new RedisLivePositionStore(redis.client, `${prefix}:d`, 1000);
    for (let id = 1; id <= 1500; id += 1) await store.save(at(id, 10, 10, 5000));
    await store.save(at(2000, 10, 10));
    await store.prune();
    expect(await redis.client.zcard(`${prefix}:d:drivers:geo`)).toBe(1);
    expect(await redis.client.hlen(`${prefix}:d:drivers:latest`)).toBe(1);
    expect(await store.latest(2000)).toBeDefined();
  });
});
