import { executeCommand } from '../../src/cli/commands';
import { DriverLocationsService } from '../../src/modules/drivers/driver-locations.service';
import { DriversService } from '../../src/modules/drivers/drivers.service';
import { DriverMatchingService } from '../../src/modules/drivers/matching/driver-matching.service';
import { SurgeSupplyPort } from '../../src/modules/pricing/surge-signals.port';
import { RidesService } from '../../src/modules/rides/rides.service';
import { acceptedRide, setStatus } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/** The matcher answers from this instance's memory: who is told about a new request, and surge's supply. */
describe('DriversService.findOnlineDriverIdsNear and countAvailableDriversNear', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const drivers = () => t.get(DriversService);
  const near = (lat: number, lng: number, category = 1, radiusKm = 5) =>
    drivers().findOnlineDriverIdsNear(category, { latitude: lat, longitude: lng }, radiusKm);
  const available = (lat: number, lng: number, category = 1, radiusKm = 5) =>
    drivers().countAvailableDriversNear({ latitude: lat, longitude: lng }, radiusKm, category);

  async function place(user: TestUser, lat: number, lng: number, online = true): Promise<void> {
    if (online) await drivers().setOnline(user.id, true);
    await t.get(DriverLocationsService).record(user.id, { latitude: lat, longitude: lng });
  }

  it('finds approved online drivers of the category (or of none) within the radius only, synchronously', async () => {
    const near1 = await createUser(t, { role: 'driver' });
    const anyCategory = await createUser(t, { role: 'driver', vehicleCategoryId: null });
    const otherCategory = await createUser(t, { role: 'driver', vehicleCategoryId: 2 });
    const far = await createUser(t, { role: 'driver' });
    const offline = await createUser(t, { role: 'driver' });
    const pending = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    await place(near1, 52.52, 13.405);
    await place(anyCategory, 52.53, 13.41);
    await place(otherCategory, 52.52, 13.405);
    await place(far, 52.7, 13.405);
    await place(offline, 52.52, 13.405, false);
    await place(pending, 52.52, 13.405, false); // going online would be refused

    // An array, not a promise: nothing waits on a query before the first send.
    const ids = near(52.52, 13.4);
    expect(Array.isArray(ids)).toBe(true);
    expect([...ids].sort()).toEqual([near1.id, anyCategory.id].sort());
    expect(near(52.52, 13.4, 2).sort()).toEqual([anyCategory.id, otherCategory.id].sort());
    expect(available(52.52, 13.4)).toBe(2);
  });

  it('follows going offline, suspension, approval and a category change at once', async () => {
    const driver = await createUser(t, { role: 'driver' });
    await place(driver, 48.85, 2.35);
    expect(near(48.85, 2.35)).toEqual([driver.id]);
    await drivers().setOnline(driver.id, false);
    expect(near(48.85, 2.35)).toEqual([]);
    await drivers().setOnline(driver.id, true);
    await drivers().decide(driver.id, 'suspend', { actorId: null, reason: 'in a test' });
    expect(near(48.85, 2.35)).toEqual([]);
    await drivers().decide(driver.id, 'approve', { actorId: null, reason: 'in a test' });
    await drivers().setOnline(driver.id, true);
    expect(near(48.85, 2.35)).toEqual([driver.id]);
    await drivers().updateProfile(driver.id, { vehicle_category_id: 2 });
    expect(near(48.85, 2.35)).toEqual([]);
    expect(near(48.85, 2.35, 2)).toEqual([driver.id]);
  });

  it('tells a driver on a ride (CONTRACT §5) but counts it as available only once the ride is over', async () => {
    const { driver, rideId } = await acceptedRide(t);
    const point = { lat: 41.9, lng: 12.5 };
    await place(driver, point.lat, point.lng);
    expect(near(point.lat, point.lng)).toEqual([driver.id]);
    expect(available(point.lat, point.lng)).toBe(0);
    for (const status of ['driver_arrived', 'started', 'completed']) expect((await setStatus(t, driver, rideId, status)).statusCode).toBe(200);
    expect(available(point.lat, point.lng)).toBe(1);
  });

  it('forgets a blocked driver at once (no more heartbeats can come)', async () => {
    const driver = await createUser(t, { role: 'driver' });
    await place(driver, 50.08, 14.43);
    expect(near(50.08, 14.43)).toEqual([driver.id]);
    await executeCommand(t.app, ['user:block', String(driver.id)]);
    expect(near(50.08, 14.43)).toEqual([]);
  });

  it('is what surge sees as supply (SurgeSupplyPort.countAvailableDriversNear)', async () => {
    const driver = await createUser(t, { role: 'driver', vehicleCategoryId: 3 });
    await place(driver, 59.33, 18.06);
    const surge = t.get(SurgeSupplyPort);
    expect(surge.countAvailableDriversNear({ latitude: 59.33, longitude: 18.06 }, 5, 3)).toBe(1);
    expect(surge.countAvailableDriversNear({ latitude: 59.33, longitude: 18.06 }, 5, 1)).toBe(0);
    await drivers().setOnline(driver.id, false);
    expect(surge.countAvailableDriversNear({ latitude: 59.33, longitude: 18.06 }, 5, 3)).toBe(0);
  });

  it('counts a position flushed to the table (another instance, or before a restart) once reloaded, and a hand-edited row then', async () => {
    const tableOnly = await createUser(t, { role: 'driver' });
    await t.db.query(`UPDATE drivers SET is_online = true, last_latitude = 40.1, last_longitude = -3.7, last_location_at = now() WHERE user_id = $1`, [
      tableOnly.id,
    ]);
    expect(near(40.1, -3.7)).toEqual([]);
    await t.get(DriverMatchingService).reload();
    expect(near(40.1, -3.7)).toEqual([tableOnly.id]);
    // A stale flushed position does not count.
    await t.db.query(`UPDATE drivers SET last_location_at = now() - interval '2 minutes' WHERE user_id = $1`, [tableOnly.id]);
    const stale = await createUser(t, { role: 'driver' });
    await t.db.query(
      `UPDATE drivers SET is_online = true, last_latitude = 40.2, last_longitude = -3.7, last_location_at = now() - interval '2 minutes' WHERE user_id = $1`,
      [stale.id],
    );
    await t.db.query(`UPDATE drivers SET is_online = false WHERE user_id = $1`, [tableOnly.id]);
    await t.get(DriverMatchingService).reload();
    expect(near(40.15, -3.7)).toEqual([]);
  });

  it('gives a user without a ride an empty snapshot', async () => {
    const passenger = await createUser(t);
    const driver = await createUser(t, { role: 'driver' });
    const rides = t.get(RidesService);
    expect(await rides.getActiveRideSnapshot({ id: passenger.id, role: 'passenger', isRegistered: true })).toEqual({ ride: null });
    expect(await rides.getActiveRideSnapshot({ id: driver.id, role: 'driver', isRegistered: true })).toEqual({ ride: null });
  });
});
