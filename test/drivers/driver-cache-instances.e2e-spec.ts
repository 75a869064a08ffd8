import { DriversService } from '../../src/modules/drivers/drivers.service';
import { createUser } from '../support/factories';
import { twoInstancesOverRedis } from '../support/instances';
import { describeWithRedis } from '../support/redis';
import { eventsCrossed } from '../realtime/live-client';

/**
 * Nearby reads the driver record (approval, category) from a per-instance cache that lives a minute
 * here. An operator's suspension or approval made through one instance (the CLI works the same way)
 * must count at once on every other: the change is an event each instance's cache consumes.
 */
describeWithRedis('driver record cache across instances (Redis)', () => {
  const apps = twoInstancesOverRedis({ DRIVER_CACHE_MS: '60000' });

  it('a suspension and a re-approval on one instance decide nearby on the other as soon as the event arrives', async () => {
    const { first, second } = apps();
    const driver = await createUser(first, { role: 'driver' });
    const nearbyOnSecond = () =>
      second.request({ method: 'GET', url: '/api/v1/driver/rides/nearby?latitude=52.52&longitude=13.40', token: driver.accessToken });
    expect((await nearbyOnSecond()).statusCode).toBe(200); // the approved record is now cached on the second instance

    await first.get(DriversService).decide(driver.id, 'suspend', { actorId: null, reason: 'in a test' });
    await eventsCrossed([first, second]);
    const refused = await nearbyOnSecond();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/approved/i);

    await first.get(DriversService).decide(driver.id, 'approve', { actorId: null, reason: 'in a test' });
    await eventsCrossed([first, second]);
    expect((await nearbyOnSecond()).statusCode).toBe(200);
  });
});
