import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { acceptedRide, bookRide, cancel, onlineDriver, placeBid, setStatus } from './ride-helpers';

describe('object-level authorization on rides', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('another passenger gets 404 reading, cancelling, listing bids of and accepting bids on a ride', async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const driver = await onlineDriver(t);
    const ride = await bookRide(t, owner);
    const bid = await placeBid(t, driver, ride.id);
    const attempts = [
      { method: 'GET' as const, url: `/api/v1/rides/${ride.id}` },
      { method: 'POST' as const, url: `/api/v1/rides/${ride.id}/cancel` },
      { method: 'GET' as const, url: `/api/v1/rides/${ride.id}/bids` },
      { method: 'POST' as const, url: `/api/v1/rides/${ride.id}/bids/${bid.id}/accept` },
    ];
    for (const attempt of attempts) {
      const res = await t.request({ ...attempt, token: stranger.accessToken });
      expect([attempt.url, res.statusCode]).toEqual([attempt.url, 404]);
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found', message: 'Ride not found' });
    }
    // Nothing changed.
    const mine = await t.request({ method: 'GET', url: `/api/v1/rides/${ride.id}`, token: owner.accessToken });
    expect(mine.json().status).toBe('requested');
  });

  it('a bid of another ride cannot be accepted on this one', async () => {
    const p1 = await createUser(t);
    const p2 = await createUser(t);
    const driver = await onlineDriver(t);
    const r1 = await bookRide(t, p1);
    const r2 = await bookRide(t, p2);
    const bidOnR2 = await placeBid(t, driver, r2.id);
    const res = await t.request({ method: 'POST', url: `/api/v1/rides/${r1.id}/bids/${bidOnR2.id}/accept`, token: p1.accessToken });
    expect(res.statusCode).toBe(404);
  });

  it('a driver cannot move or cancel a ride that is not theirs', async () => {
    const { rideId } = await acceptedRide(t);
    const other = await onlineDriver(t);
    expect((await setStatus(t, other, rideId, 'driver_arrived')).statusCode).toBe(404);
    expect((await cancel(t, other, rideId)).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/v1/rides/${rideId}`, token: other.accessToken })).statusCode).toBe(404);
  });

  it('a driver with a pending bid may read the ride, but not its other bids', async () => {
    const passenger = await createUser(t);
    const driver = await onlineDriver(t);
    const ride = await bookRide(t, passenger);
    await placeBid(t, driver, ride.id);
    expect((await t.request({ method: 'GET', url: `/api/v1/rides/${ride.id}`, token: driver.accessToken })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/v1/rides/${ride.id}/bids`, token: driver.accessToken })).statusCode).toBe(403);
  });

  it('a passenger calling driver endpoints gets 403, a driver calling passenger endpoints gets 403', async () => {
    const passenger = await createUser(t);
    const driver = await onlineDriver(t);
    const ride = await bookRide(t, passenger);
    const driverCalls = [
      { method: 'GET' as const, url: '/api/v1/driver/profile' },
      { method: 'PUT' as const, url: '/api/v1/driver/profile', payload: { vehicle_make: 'Kia' } },
      { method: 'PUT' as const, url: '/api/v1/driver/status', payload: { is_online: true } },
      { method: 'PUT' as const, url: '/api/v1/driver/location', payload: { latitude: 1, longitude: 1 } },
      { method: 'GET' as const, url: '/api/v1/driver/rides/nearby?latitude=1&longitude=1' },
      { method: 'POST' as const, url: `/api/v1/driver/rides/${ride.id}/bid`, payload: { amount: 5, eta_minutes: 2 } },
      { method: 'GET' as const, url: '/api/v1/driver/rides/active' },
      { method: 'PUT' as const, url: `/api/v1/rides/${ride.id}/status`, payload: { status: 'driver_arrived' } },
      { method: 'GET' as const, url: '/api/v1/driver/earnings' },
    ];
    for (const call of driverCalls) {
      const res = await t.request({ ...call, token: passenger.accessToken });
      expect([call.url, res.statusCode]).toEqual([call.url, 403]);
    }
    const passengerCalls = [
      { method: 'POST' as const, url: '/api/v1/rides/book', payload: {} },
      { method: 'GET' as const, url: '/api/v1/passenger/rides/active' },
      { method: 'GET' as const, url: '/api/v1/passenger/rides' },
    ];
    for (const call of passengerCalls) {
      const res = await t.request({ ...call, token: driver.accessToken });
      expect([call.url, res.statusCode]).toEqual([call.url, 403]);
    }
  });

  it('incomplete accounts get 403 on ride endpoints', async () => {
    const pending = await createUser(t, { registered: false });
    for (const call of [
      { method: 'POST' as const, url: '/api/v1/rides/estimate', payload: {} },
      { method: 'GET' as const, url: '/api/v1/passenger/rides/active' },
    ]) {
      expect((await t.request({ ...call, token: pending.accessToken })).statusCode).toBe(403);
    }
  });

  it('a ride id that is not a UUID is 404, never 500', async () => {
    const passenger = await createUser(t);
    for (const url of ['/api/v1/rides/not-a-uuid', '/api/v1/rides/123/bids']) {
      expect((await t.request({ method: 'GET', url, token: passenger.accessToken })).statusCode).toBe(404);
    }
  });

  it('drivers that are not approved cannot go online, see nearby rides or bid (403)', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    const pending = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    expect((await t.request({ method: 'PUT', url: '/api/v1/driver/status', token: pending.accessToken, payload: { is_online: true } })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/v1/driver/rides/nearby?latitude=1&longitude=1', token: pending.accessToken })).statusCode).toBe(403);
    const bid = await t.request({
      method: 'POST',
      url: `/api/v1/driver/rides/${ride.id}/bid`,
      token: pending.accessToken,
      payload: { amount: 5, eta_minutes: 2 },
    });
    expect(bid.statusCode).toBe(403);
    const offline = await createUser(t, { role: 'driver' });
    const offlineBid = await t.request({
      method: 'POST',
      url: `/api/v1/driver/rides/${ride.id}/bid`,
      token: offline.accessToken,
      payload: { amount: 5, eta_minutes: 2 },
    });
    expect(offlineBid.statusCode).toBe(403);
  });
});
