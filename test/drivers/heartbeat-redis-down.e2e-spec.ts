import { DriverLocationsService } from '../../src/modules/drivers/driver-locations.service';
import { createUser } from '../support/factories';
import { describeWithRedisServer, spawnRedis, TestRedis } from '../support/redis';
import { startTestApp, TestApp } from '../support/test-app';

/** The live store is a cache of the latest heartbeats: losing Redis must not lose heartbeats. */
describeWithRedisServer('location heartbeat while Redis is down', () => {
  let t: TestApp;
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await spawnRedis();
    t = await startTestApp({ env: { REDIS_URL: redis.url, LOCATION_FLUSH_MS: '60000' } });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('is still answered 200 and the position still reaches the table', async () => {
    const driver = await createUser(t, { role: 'driver' });
    await redis.stop();
    await redis.exited; // down for certain, not dying while the heartbeat is on its way
    const started = Date.now();
    const res = await t.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: { latitude: 5, longitude: 6 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ latitude: 5, longitude: 6 });
    expect(Date.now() - started).toBeLessThan(5000);
    await t.get(DriverLocationsService).flush();
    const [row] = await t.db.query(`SELECT last_latitude, last_longitude FROM drivers WHERE user_id = $1`, [driver.id]);
    expect(row).toEqual({ last_latitude: 5, last_longitude: 6 });
  });
});
