import { DriverLocationsService } from '../../src/modules/drivers/driver-locations.service';
import { DriversService } from '../../src/modules/drivers/drivers.service';
import { acceptedRide, PICKUP, setStatus } from '../rides/ride-helpers';
import { createUser } from '../support/factories';
import { twoInstancesOverRedis } from '../support/instances';
import { describeWithRedis } from '../support/redis';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Every instance's matcher holds every driver: availability, rides and heartbeats answered by another
 * instance reach it over the bus, and an instance started later loads them from the database.
 */
describeWithRedis('the matcher across instances', () => {
  const apps = twoInstancesOverRedis({ LOCATION_FLUSH_MS: '50' });
  const NEAR = { latitude: PICKUP.latitude + 0.002, longitude: PICKUP.longitude };
  const availableOn = (t: TestApp, category = 1): number => t.get(DriversService).countAvailableDriversNear(PICKUP, 5, category);
  const toldOn = (t: TestApp): number[] => t.get(DriversService).findOnlineDriverIdsNear(1, PICKUP, 5);

  async function status(t: TestApp, token: string, isOnline: boolean): Promise<void> {
    expect((await t.request({ method: 'PUT', url: '/api/v1/driver/status', token, payload: { is_online: isOnline } })).statusCode).toBe(200);
  }

  it('sees a driver go online, heartbeat, change category and go offline on the other instance', async () => {
    const { first, second } = apps();
    const driver = await createUser(first, { role: 'driver' });
    await status(first, driver.accessToken, true);
    expect((await first.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: NEAR })).statusCode).toBe(200);
    await waitFor('the heartbeat on instance two', () => toldOn(second).includes(driver.id));
    expect(availableOn(second)).toBe(1);

    await first.get(DriversService).updateProfile(driver.id, { vehicle_category_id: 2 });
    await waitFor('the category on instance two', () => availableOn(second, 2) === 1);
    expect(availableOn(second, 1)).toBe(0);
    await status(first, driver.accessToken, false);
    await waitFor('offline on instance two', () => availableOn(second, 2) === 0);
  });

  it('counts a driver whose ride was accepted on the other instance as busy until the ride is over', async () => {
    const { first, second } = apps();
    const { driver, rideId } = await acceptedRide(first);
    expect((await first.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: NEAR })).statusCode).toBe(200);
    await waitFor('the heartbeat on instance two', () => toldOn(second).includes(driver.id));
    expect(availableOn(second)).toBe(0);
    for (const s of ['driver_arrived', 'started', 'completed']) expect((await setStatus(first, driver, rideId, s)).statusCode).toBe(200);
    await waitFor('free on instance two', () => availableOn(second) === 1);
    await status(first, driver.accessToken, false);
    await waitFor('offline on instance two', () => availableOn(second) === 0);
  });

  it('loads online drivers, their rides and their flushed positions at start-up', async () => {
    const { first } = apps();
    const free = await createUser(first, { role: 'driver' });
    const { driver: busy } = await acceptedRide(first);
    for (const d of [free, busy]) {
      await status(first, d.accessToken, true);
      expect((await first.request({ method: 'PUT', url: '/api/v1/driver/location', token: d.accessToken, payload: NEAR })).statusCode).toBe(200);
    }
    await first.get(DriverLocationsService).flush();
    // No Redis: nothing reaches the new instance but what it reads from the database.
    const third = await startTestApp({ databaseUrl: first.databaseUrl });
    try {
      expect(toldOn(third).sort()).toEqual([free.id, busy.id].sort());
      expect(availableOn(third)).toBe(1);
    } finally {
      await third.close();
    }
  });
});
