import type { RideView } from '../../src/modules/rides/read-models/ride-view';
import { haversineKm } from '../../src/common/geo';
import { RideExpiryJob } from '../../src/modules/rides/jobs/ride-expiry.job';
import { OpenRequestsIndex } from '../../src/modules/rides/read-models/open-requests/open-requests.index';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { area, CACHED, getRide, nearby, nearbyIds, rideAs } from './ride-cache-helpers';
import { accept, acceptedRide, bookRide, cancel, Json, onlineDriver, placeBid, setStatus } from './ride-helpers';

/** What the cache must never hide on one instance (helpers and TTLs: ride-cache-helpers.ts; two instances: ride-cache-instances.e2e-spec.ts). */

describe('ride details cache: read-your-writes on one instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: CACHED });
  });
  afterAll(() => t.close());

  it('accept, every status step and completion show at once to the passenger and the driver', async () => {
    const passenger = await createUser(t);
    const driver = await onlineDriver(t);
    const ride = await bookRide(t, passenger);
    expect((await rideAs(t, passenger, ride.id)).status).toBe('requested');
    expect((await rideAs(t, passenger, ride.id)).driver).toBeNull(); // served from the cache now

    const bid = await placeBid(t, driver, ride.id, 12);
    expect((await accept(t, passenger, ride.id, bid.id)).statusCode).toBe(200);
    expect(await rideAs(t, passenger, ride.id)).toMatchObject({ status: 'accepted', fare: 12, driver: { id: driver.id } });
    expect((await rideAs(t, driver, ride.id)).status).toBe('accepted');

    for (const status of ['driver_arrived', 'started', 'completed']) {
      expect((await setStatus(t, driver, ride.id, status)).statusCode).toBe(200);
      expect((await rideAs(t, passenger, ride.id)).status).toBe(status);
      expect((await rideAs(t, driver, ride.id)).status).toBe(status);
    }
  });

  it('a cancellation by either party shows at once', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    await rideAs(t, passenger, ride.id);
    expect((await cancel(t, passenger, ride.id, 'changed plans')).statusCode).toBe(200);
    expect(await rideAs(t, passenger, ride.id)).toMatchObject({ status: 'cancelled', cancelled_by: 'passenger', cancel_reason: 'changed plans' });

    const accepted = await acceptedRide(t);
    await rideAs(t, accepted.passenger, accepted.rideId);
    await rideAs(t, accepted.driver, accepted.rideId);
    expect((await cancel(t, accepted.driver, accepted.rideId)).statusCode).toBe(200);
    expect(await rideAs(t, accepted.passenger, accepted.rideId)).toMatchObject({ status: 'cancelled', cancelled_by: 'driver' });
    expect((await rideAs(t, accepted.driver, accepted.rideId)).status).toBe('cancelled');
  });

  it('expiry by the sweep shows at once', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    expect((await rideAs(t, passenger, ride.id)).status).toBe('requested');
    await t.db.query(`UPDATE rides SET expires_at = now() - interval '1 second' WHERE id = $1`, [ride.id]);
    expect(await t.get(RideExpiryJob).sweep()).toBeGreaterThanOrEqual(1);
    expect((await rideAs(t, passenger, ride.id)).status).toBe('expired');
  });

  it("profile edits show at once: the driver's vehicle, the passenger's name", async () => {
    const { passenger, driver, rideId } = await acceptedRide(t);
    expect((await rideAs(t, passenger, rideId)).driver?.vehicle.color).toBe('White');
    expect((await rideAs(t, driver, rideId)).passenger?.first_name).toBe('Paula');

    const vehicle = await t.request({ method: 'PUT', url: '/api/v1/driver/profile', token: driver.accessToken, payload: { vehicle_color: 'Green' } });
    expect(vehicle.statusCode).toBe(200);
    expect((await rideAs(t, passenger, rideId)).driver?.vehicle.color).toBe('Green');

    const name = await t.request({ method: 'PUT', url: '/api/v1/auth/profile', token: passenger.accessToken, payload: { first_name: 'Petra' } });
    expect(name.statusCode).toBe(200);
    expect((await rideAs(t, driver, rideId)).passenger?.first_name).toBe('Petra');
  });

  it('a deleted passenger drops out of the ride the driver still sees', async () => {
    const { passenger, driver, rideId } = await acceptedRide(t);
    expect((await setStatus(t, driver, rideId, 'driver_arrived')).statusCode).toBe(200);
    expect((await cancel(t, passenger, rideId)).statusCode).toBe(200);
    expect((await rideAs(t, driver, rideId)).passenger).toMatchObject({ id: passenger.id });
    const deleted = await t.request({ method: 'DELETE', url: '/api/v1/auth/account', token: passenger.accessToken });
    expect(deleted.statusCode).toBe(200);
    expect((await rideAs(t, driver, rideId)).passenger).toBeNull();
  });

  it('a ride id in upper case is the same ride and is invalidated like it', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    const upper = (ride.id as string).toUpperCase();
    expect((await rideAs(t, passenger, upper)).id).toBe(ride.id);
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
    expect((await rideAs(t, passenger, upper)).status).toBe('cancelled');
  });
});

describe('ride details cache: visibility', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: CACHED });
  });
  afterAll(() => t.close());

  it('a ride cached for its passenger is still 404 to everyone else; a pending bidder sees it until the ride is taken', async () => {
    const passenger = await createUser(t);
    const otherPassenger = await createUser(t);
    const bidder = await onlineDriver(t);
    const winner = await onlineDriver(t);
    const stranger = await onlineDriver(t);
    const ride = await bookRide(t, passenger);
    await rideAs(t, passenger, ride.id);
    await rideAs(t, passenger, ride.id);

    for (const user of [otherPassenger, bidder, stranger]) {
      const res = await getRide(t, user, ride.id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404 });
    }

    await placeBid(t, bidder, ride.id, 10);
    const win = await placeBid(t, winner, ride.id, 9);
    expect((await rideAs(t, bidder, ride.id)).status).toBe('requested');
    expect((await accept(t, passenger, ride.id, win.id)).statusCode).toBe(200);
    await rideAs(t, winner, ride.id);
    await rideAs(t, passenger, ride.id);
    for (const user of [bidder, otherPassenger, stranger]) expect((await getRide(t, user, ride.id)).statusCode).toBe(404);
  });

  it('concurrent first reads share the answer and each caller is still checked', async () => {
    const passenger = await createUser(t);
    const other = await createUser(t);
    const ride = await bookRide(t, passenger);
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => getRide(t, passenger, ride.id)),
      ...Array.from({ length: 5 }, () => getRide(t, other, ride.id)),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 404, 404, 404, 404, 404]);
  });

  it('unknown and malformed ids are 404', async () => {
    const passenger = await createUser(t);
    expect((await getRide(t, passenger, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await getRide(t, passenger, 'not-a-uuid')).statusCode).toBe(404);
  });
});

describe('nearby (no cache: every change shows at once)', () => {
  let t: TestApp;
  let uncached: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: CACHED });
    uncached = await startTestApp({ databaseUrl: t.databaseUrl, env: { RIDE_CACHE_MS: '0', RIDE_EXPIRY_SWEEP_SECONDS: '3600' } });
  });
  afterAll(async () => {
    await uncached.close();
    await t.close();
  });

  it('a booked ride appears at once; accepted and cancelled rides disappear at once', async () => {
    const pickup = area(48.1);
    const driver = await onlineDriver(t);
    const winner = await onlineDriver(t);
    expect(await nearbyIds(t, driver, pickup)).toEqual([]);

    const firstPassenger = await createUser(t);
    const first = await bookRide(t, firstPassenger, { pickup });
    expect(await nearbyIds(t, driver, pickup)).toEqual([first.id]);
    const secondPassenger = await createUser(t);
    const second = await bookRide(t, secondPassenger, { pickup: { ...pickup, latitude: pickup.latitude + 0.01 } });
    expect(await nearbyIds(t, driver, pickup)).toEqual([first.id, second.id]);

    const bid = await placeBid(t, winner, first.id);
    expect((await accept(t, firstPassenger, first.id, bid.id)).statusCode).toBe(200);
    expect(await nearbyIds(t, driver, pickup)).toEqual([second.id]);

    expect((await cancel(t, secondPassenger, second.id)).statusCode).toBe(200);
    expect(await nearbyIds(t, driver, pickup)).toEqual([]);
  });

  it('an expired ride disappears at once after the sweep', async () => {
    const pickup = area(48.2);
    const driver = await onlineDriver(t);
    const ride = await bookRide(t, await createUser(t), { pickup });
    expect(await nearbyIds(t, driver, pickup)).toEqual([ride.id]);
    await t.db.query(`UPDATE rides SET expires_at = now() - interval '1 second' WHERE id = $1`, [ride.id]);
    await t.get(RideExpiryJob).sweep();
    expect(await nearbyIds(t, driver, pickup)).toEqual([]);
  });

  it('distances come from the exact point asked, as without the cache', async () => {
    const pickup = area(48.3);
    const driver = await onlineDriver(t);
    const rides = [];
    for (const dLat of [0.002, 0.0123, 0.03, -0.0071]) {
      rides.push(await bookRide(t, await createUser(t), { pickup: { ...pickup, latitude: pickup.latitude + dLat } }));
    }
    // The second instance shares no bus with the first (no Redis): its open-requests index learns
    // of these rides from the database, by reconciliation.
    await uncached.get(OpenRequestsIndex).reconcile();
    // Points inside one ~11 m grid cell share the cached candidates, yet each gets its own distances.
    const points = [
      { latitude: 48.30001, longitude: 13.41321 },
      { latitude: 48.300049, longitude: 13.413249 },
      { latitude: 48.29996, longitude: 13.41316 },
    ];
    for (const point of points) {
      for (const radius of [1, 2.5, 5]) {
        const cached = await nearby(t, driver, point, radius);
        const fresh = await nearby(uncached, driver, point, radius);
        expect(cached.statusCode).toBe(200);
        expect(cached.headers['content-type']).toMatch(/^application\/json/);
        expect(cached.json()).toEqual(fresh.json());
        for (const r of cached.json() as Array<RideView & { distance_km: number }>) {
          const expected = Math.round(haversineKm(point, r.pickup) * 100) / 100;
          expect(r.distance_km).toBe(expected);
          expect(r.distance_km).toBeLessThanOrEqual(radius);
        }
      }
    }
    expect(((await nearby(t, driver, points[0]!, 5)).json() as Json[]).map((r) => r.id)).toEqual([rides[0], rides[3], rides[1], rides[2]].map((r) => r.id));
  });

  it("the driver's category still filters", async () => {
    const pickup = area(48.4);
    const economy = await onlineDriver(t);
    const other = await onlineDriver(t, { vehicleCategoryId: 2 });
    const any = await onlineDriver(t, { vehicleCategoryId: null });
    const ride = await bookRide(t, await createUser(t), { pickup });
    expect(await nearbyIds(t, economy, pickup)).toEqual([ride.id]);
    expect(await nearbyIds(t, other, pickup)).toEqual([]);
    expect(await nearbyIds(t, any, pickup)).toEqual([ride.id]);
  });
});
