import { EventBus } from '../../src/common/events/event-bus';
import { DriverLocationsService } from '../../src/modules/drivers/driver-locations.service';
import { DriversService } from '../../src/modules/drivers/drivers.service';
import { RidesService } from '../../src/modules/rides/rides.service';
import { OpenRequestsIndex } from '../../src/modules/rides/read-models/open-requests/open-requests.index';
import { waitFor } from '../support/wait';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { acceptedRide, bookRide, onlineDriver } from '../rides/ride-helpers';

describe('driver operations', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A long flush interval: the test decides when positions are written.
    t = await startTestApp({ env: { LOCATION_FLUSH_MS: '60000' } });
  });
  afterAll(() => t.close());

  const call = (token: string, method: 'GET' | 'PUT', url: string, payload?: object) => t.request({ method, url: `/api/v1${url}`, token, payload });

  it('GET/PUT profile: partial updates of vehicle and licence, category must exist', async () => {
    const driver = await createUser(t, { role: 'driver' });
    const res = await call(driver.accessToken, 'GET', '/driver/profile');
    expect(res.json()).toEqual({
      user_id: driver.id,
      status: 'approved',
      is_online: false,
      vehicle_category_id: 1,
      vehicle_make: 'Toyota',
      vehicle_model: 'Corolla',
      vehicle_plate: `T${driver.id}`,
      vehicle_color: 'White',
      vehicle_year: 2021,
      license_number: `L-${driver.id}`,
      rating: null,
      ratings_count: 0,
      last_location: null,
      last_location_at: null,
      payouts_enabled: false,
    });
    const updated = await call(driver.accessToken, 'PUT', '/driver/profile', { vehicle_category_id: 2, vehicle_color: 'Black', vehicle_year: 2023 });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ vehicle_category_id: 2, vehicle_color: 'Black', vehicle_year: 2023, vehicle_make: 'Toyota' });
    for (const body of [{ vehicle_category_id: 77 }, { vehicle_year: 1800 }, { rating: 5 }, { vehicle_plate: '' }]) {
      expect((await call(driver.accessToken, 'PUT', '/driver/profile', body)).statusCode).toBe(400);
    }
  });

  it('online/offline for approved drivers; operator approval decisions take drivers offline', async () => {
    const driver = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    expect((await call(driver.accessToken, 'PUT', '/driver/status', { is_online: true })).statusCode).toBe(403);
    const drivers = t.get(DriversService);
    await drivers.decide(driver.id, 'approve', { actorId: null, reason: 'in a test' });
    expect((await call(driver.accessToken, 'PUT', '/driver/status', { is_online: true })).json().is_online).toBe(true);
    await drivers.decide(driver.id, 'suspend', { actorId: null, reason: 'in a test' });
    expect((await call(driver.accessToken, 'GET', '/driver/profile')).json()).toMatchObject({ status: 'suspended', is_online: false });
    expect((await call(driver.accessToken, 'PUT', '/driver/status', { is_online: false })).statusCode).toBe(200);
    expect((await call(driver.accessToken, 'PUT', '/driver/status', { is_online: 'yes' })).statusCode).toBe(400);
    await expect(drivers.decide(999_999, 'approve', { actorId: null, reason: 'in a test' })).rejects.toMatchObject({ code: 'DRIVER_NOT_FOUND' });
  });

  it('location heartbeat: validated, kept in memory, written in one batch at flush', async () => {
    const d1 = await onlineDriver(t);
    const d2 = await onlineDriver(t);
    for (const body of [
      { latitude: 91, longitude: 0 },
      { latitude: 0 },
      { latitude: 0, longitude: 0, heading: 400 },
      { latitude: 0, longitude: 0, speed: -1 },
    ]) {
      expect((await call(d1.accessToken, 'PUT', '/driver/location', body)).statusCode).toBe(400);
    }
    const ok = await call(d1.accessToken, 'PUT', '/driver/location', { latitude: 1.5, longitude: 2.5, heading: 10, speed: 3, accuracy: 4 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ latitude: 1.5, longitude: 2.5, heading: 10, speed: 3, accuracy: 4 });
    await call(d1.accessToken, 'PUT', '/driver/location', { latitude: 1.6, longitude: 2.6 });
    await call(d2.accessToken, 'PUT', '/driver/location', { latitude: 3, longitude: 4 });

    const stored = async (id: number) => (await t.db.query(`SELECT last_latitude, last_longitude, last_heading FROM drivers WHERE user_id = $1`, [id]))[0];
    expect((await stored(d1.id)).last_latitude).not.toBe(1.6);
    // The profile already shows the newest position.
    expect((await call(d1.accessToken, 'GET', '/driver/profile')).json().last_location).toMatchObject({ latitude: 1.6, longitude: 2.6 });

    await t.get(DriverLocationsService).flush();
    expect(await stored(d1.id)).toEqual({ last_latitude: 1.6, last_longitude: 2.6, last_heading: null });
    expect(await stored(d2.id)).toMatchObject({ last_latitude: 3, last_longitude: 4 });
  });

  it("publishes driver.location_updated to the passenger of the driver's ride", async () => {
    const { driver, passenger, rideId } = await acceptedRide(t);
    const seen: unknown[] = [];
    const off = t.get(EventBus).subscribe('driver.location_updated', (e) => void seen.push(e));
    await call(driver.accessToken, 'PUT', '/driver/location', { latitude: 52.5, longitude: 13.4, speed: 7 });
    const idle = await onlineDriver(t);
    await call(idle.accessToken, 'PUT', '/driver/location', { latitude: 52.5, longitude: 13.4 });
    // Each heartbeat looks up its driver's ride after answering, then announces (or not) in the same turn.
    const rides = t.get(RidesService);
    await waitFor(
      'both ride lookups done',
      () => rides.peekAssignedRideOfDriver(driver.id) !== undefined && rides.peekAssignedRideOfDriver(idle.id) !== undefined,
    );
    off();
    expect(seen).toEqual([
      {
        ride_id: rideId,
        passenger_id: passenger.id,
        driver_id: driver.id,
        location: { latitude: 52.5, longitude: 13.4, heading: null, speed: 7, accuracy: null, at: expect.any(String) },
      },
    ]);
  });

  it('nearby: requested rides of the category within the radius, nearest first, with distance', async () => {
    // A remote spot so that other tests' rides are far away.
    const origin = { latitude: -33.86, longitude: 151.2 };
    const at = (dLat: number, category = 1) => ({
      pickup: { address: `+${dLat}`, latitude: origin.latitude + dLat, longitude: origin.longitude },
      vehicle_category_id: category,
    });
    const r2km = await bookRide(t, await createUser(t), at(0.018));
    const r1km = await bookRide(t, await createUser(t), at(0.009));
    const r8km = await bookRide(t, await createUser(t), at(0.072));
    const comfort = await bookRide(t, await createUser(t), at(0.004, 2));
    const stale = await bookRide(t, await createUser(t), at(0.001));
    await t.db.query(`UPDATE rides SET expires_at = now() - interval '1 second' WHERE id = $1`, [stale.id]);
    // A hand edit: the in-memory open requests see it at their next reconciliation (run now).
    await t.get(OpenRequestsIndex).reconcile();

    const driver = await onlineDriver(t);
    const q = `latitude=${origin.latitude}&longitude=${origin.longitude}`;
    const near = (await call(driver.accessToken, 'GET', `/driver/rides/nearby?${q}`)).json();
    expect(near.map((r: { id: string }) => r.id)).toEqual([r1km.id, r2km.id]);
    expect(near[0].distance_km).toBeCloseTo(1.0, 1);
    expect(near[1].distance_km).toBeCloseTo(2.0, 1);
    expect(near[0]).toMatchObject({ status: 'requested', ride_code: r1km.ride_code, pickup: { address: '+0.009' } });

    const wide = (await call(driver.accessToken, 'GET', `/driver/rides/nearby?${q}&radius_km=10`)).json();
    expect(wide.map((r: { id: string }) => r.id)).toEqual([r1km.id, r2km.id, r8km.id]);

    const anyCategory = await onlineDriver(t, { vehicleCategoryId: null });
    const all = (await call(anyCategory.accessToken, 'GET', `/driver/rides/nearby?${q}`)).json();
    expect(all.map((r: { id: string }) => r.id)).toEqual([comfort.id, r1km.id, r2km.id]);

    // Defaults to the last location (in memory before any flush).
    await call(driver.accessToken, 'PUT', '/driver/location', { latitude: origin.latitude + 0.072, longitude: origin.longitude });
    const fromPing = (await call(driver.accessToken, 'GET', '/driver/rides/nearby')).json();
    expect(fromPing.map((r: { id: string }) => r.id)).toEqual([r8km.id]);

    for (const bad of ['radius_km=51', 'latitude=91&longitude=0', 'latitude=1', 'radius_km=abc']) {
      expect((await call(driver.accessToken, 'GET', `/driver/rides/nearby?${bad}`)).statusCode).toBe(400);
    }
    const nowhere = await createUser(t, { role: 'driver' });
    const unknown = await call(nowhere.accessToken, 'GET', '/driver/rides/nearby');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Send your location or pass latitude and longitude');
  });

  it('active ride: {ride: null} without one, the assigned ride with one', async () => {
    const driver = await onlineDriver(t);
    expect((await call(driver.accessToken, 'GET', '/driver/rides/active')).json()).toEqual({ ride: null });
    const { rideId } = await acceptedRide(t, { driver });
    expect((await call(driver.accessToken, 'GET', '/driver/rides/active')).json()).toMatchObject({ ride: { id: rideId, status: 'accepted' } });
  });
});

describe('driver locations on shutdown', () => {
  it('flushes pending positions when an instance stops', async () => {
    const first = await startTestApp({ env: { LOCATION_FLUSH_MS: '60000' } });
    try {
      const second = await startTestApp({ databaseUrl: first.databaseUrl, env: { LOCATION_FLUSH_MS: '60000' } });
      const driver = await createUser(first, { role: 'driver' });
      const res = await second.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: { latitude: 7, longitude: 8 } });
      expect(res.statusCode).toBe(200);
      await second.close();
      const [row] = await first.db.query(`SELECT last_latitude, last_longitude FROM drivers WHERE user_id = $1`, [driver.id]);
      expect(row).toEqual({ last_latitude: 7, last_longitude: 8 });
    } finally {
      await first.close();
    }
  });
});
