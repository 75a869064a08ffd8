import { DriversService } from '../../src/modules/drivers/drivers.service';
import { createUser } from '../support/factories';
import { twoInstancesOverOwnRedis } from '../support/instances';
import { describeWithRedisServer } from '../support/redis';
import { waitFor } from '../support/wait';

/**
 * The driver record nearby reads is cached for long (DRIVER_CACHE_MS, ten minutes by default) because
 * driver events keep it right. Pub/sub is at-most-once: a suspension published while an instance's
 * bus was down never reaches it, so that instance forgets every cached record when its bus returns.
 */
describeWithRedisServer('driver record cache after the bus connection dropped', () => {
  const apps = twoInstancesOverOwnRedis({ DRIVER_CACHE_MS: '3600000' });

  it('a suspension missed while the bus was down counts once it reconnects', async () => {
    const { first, second, stopRedis, restartRedis } = apps();
    const driver = await createUser(first, { role: 'driver' });
    const nearbyOnSecond = () => second.request({ method: 'GET', url: '/api/v1/driver/rides/nearby?latitude=48.1&longitude=11.5', token: driver.accessToken });
    expect((await nearbyOnSecond()).statusCode).toBe(200); // the approved record is now cached on the second instance

    await stopRedis();
    await first.get(DriversService).decide(driver.id, 'suspend', { actorId: null, reason: 'in a test' });
    // The event never reached the second instance: its cached record still says approved.
    expect((await nearbyOnSecond()).statusCode).toBe(200);

    await restartRedis();
    await waitFor('the reconnected instance dropped its cached records', async () => (await nearbyOnSecond()).statusCode === 403, 20_000);
  });
});
