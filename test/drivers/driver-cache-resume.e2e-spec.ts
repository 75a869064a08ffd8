import { DriversService } from '../../src/modules/drivers/drivers.service';
import { createUser } from '../support/factories';
import { describeWithRedisServer, freePort, spawnRedis, TestRedis } from '../support/redis';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * The driver record nearby reads is cached for long (DRIVER_CACHE_MS, ten minutes by default) because
 * driver events keep it right. Pub/sub is at-most-once: a suspension published while an instance's
 * bus was down never reaches it, so that instance forgets every cached record when its bus returns.
 */
describeWithRedisServer('driver record cache after the bus connection dropped', () => {
  let redis: TestRedis;
  let first: TestApp;
  let second: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    redis = await spawnRedis(port);
    const env = { REDIS_URL: redis.url, DRIVER_CACHE_MS: '3600000' };
    first = await startTestApp({ env });
    second = await startTestApp({ databaseUrl: first.databaseUrl, env });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await redis?.stop();
  });

  it('a suspension missed while the bus was down counts once it reconnects', async () => {
    const driver = await createUser(first, { role: 'driver' });
    const nearbyOnSecond = () =>
      second.request({ method: 'GET', url: '/api/v1/driver/rides/nearby?latitude=48.1&longitude=11.5', token: driver.accessToken });
    expect((await nearbyOnSecond()).statusCode).toBe(200); // the approved record is now cached on the second instance

    await redis.stop();
    await redis.exited;
    await first.get(DriversService).setApprovalStatus(driver.id, 'suspended');
    // The event never reached the second instance: its cached record still says approved.
    expect((await nearbyOnSecond()).statusCode).toBe(200);

    redis = await spawnRedis(port);
    await waitFor('the reconnected instance dropped its cached records', async () => (await nearbyOnSecond()).statusCode === 403, 20_000);
  });
});
