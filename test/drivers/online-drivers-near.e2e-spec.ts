import { DriverLocationsService } from '../../src/modules/drivers/driver-locations.service';
import { DriversService } from '../../src/modules/drivers/drivers.service';
import { RidesService } from '../../src/modules/rides/rides.service';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

describe('DriversService.findOnlineDriverIdsNear', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function place(id: number, lat: number, lng: number, online = true): Promise<void> {
    await t.db.query(`UPDATE drivers SET is_online = $2 WHERE user_id = $1`, [id, online]);
    await t.get(DriverLocationsService).record(id, { latitude: lat, longitude: lng });
  }

  it('finds approved online drivers of the category (or of none) within the radius only', async () => {
    const near = await createUser(t, { role: 'driver' });
    const anyCategory = await createUser(t, { role: 'driver', vehicleCategoryId: null });
    const otherCategory = await createUser(t, { role: 'driver', vehicleCategoryId: 2 });
    const far = await createUser(t, { role: 'driver' });
    const offline = await createUser(t, { role: 'driver' });
    const pending = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    await place(near.id, 52.52, 13.405);
    await place(anyCategory.id, 52.53, 13.41);
    await place(otherCategory.id, 52.52, 13.405);
    await place(far.id, 52.7, 13.405);
    await place(offline.id, 52.52, 13.405, false);
    await place(pending.id, 52.52, 13.405);

    const ids = await t.get(DriversService).findOnlineDriverIdsNear(1, { latitude: 52.52, longitude: 13.4 }, 5);
    expect(ids.sort()).toEqual([near.id, anyCategory.id].sort());
  });

  it('ignores a position that is only in the table (the live store decides who is near)', async () => {
    const tableOnly = await createUser(t, { role: 'driver' });
    await t.db.query(`UPDATE drivers SET is_online = true, last_latitude = 40.1, last_longitude = -3.7, last_location_at = now() WHERE user_id = $1`, [tableOnly.id]);
    expect(await t.get(DriversService).findOnlineDriverIdsNear(1, { latitude: 40.1, longitude: -3.7 }, 5)).toEqual([]);
    await place(tableOnly.id, 40.1, -3.7);
    expect(await t.get(DriversService).findOnlineDriverIdsNear(1, { latitude: 40.1, longitude: -3.7 }, 5)).toEqual([tableOnly.id]);
  });

  it('gives a user without a ride an empty snapshot', async () => {
    const passenger = await createUser(t);
    const driver = await createUser(t, { role: 'driver' });
    const rides = t.get(RidesService);
    expect(await rides.getActiveRideSnapshot({ id: passenger.id, role: 'passenger', isRegistered: true })).toEqual({ ride: null });
    expect(await rides.getActiveRideSnapshot({ id: driver.id, role: 'driver', isRegistered: true })).toEqual({ ride: null });
  });
});
