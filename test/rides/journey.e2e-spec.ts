import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const PICKUP = { address: 'Alexanderplatz 1, Berlin', latitude: 52.5219, longitude: 13.4132 };
const DROPOFF = { address: 'Potsdamer Platz 1, Berlin', latitude: 52.5096, longitude: 13.3759 };

describe('the whole passenger and driver journey (spec call order)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('books, bids, accepts, drives, completes, pays and shows up in history and earnings', async () => {
    const passenger = await createUser(t);
    const driver = await createUser(t, { role: 'driver' });
    const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.request({ method, url: `/api/v1${url}`, token, payload });

    // Passenger: categories, estimate, book.
    const categories = await t.request({ method: 'GET', url: '/api/v1/rides/categories' });
    expect(categories.statusCode).toBe(200);
    const ride = { pickup: PICKUP, dropoff: DROPOFF, ride_type: 'one_way', vehicle_category_id: 1, passenger_count: 2, children: 0 };
    const estimate = await call(passenger.accessToken, 'POST', '/rides/estimate', ride);
    expect(estimate.statusCode).toBe(200);
    expect(estimate.json()).toMatchObject({ vehicle_category_id: 1, currency: 'USD', breakdown: expect.any(Object) });

    const booked = await call(passenger.accessToken, 'POST', '/rides/book', { ...ride, payment_method: 'cash' });
    expect(booked.statusCode).toBe(201);
    const rideBody = booked.json();
    expect(rideBody).toMatchObject({ status: 'requested', ride_type: 'one_way', fare: null, driver: null, payment_method: 'cash' });
    expect(rideBody.ride_code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/);
    expect(rideBody.estimate.breakdown.total).toBe(estimate.json().breakdown.total);
    const rideId = rideBody.id as string;

    const active = await call(passenger.accessToken, 'GET', '/passenger/rides/active');
    expect(active.statusCode).toBe(200);
    expect(active.json()).toMatchObject({ ride: { id: rideId, status: 'requested' }, bids: [] });
    expect((await call(passenger.accessToken, 'GET', `/rides/${rideId}`)).json()).toMatchObject({ id: rideId });

    // Driver: profile, status, location, nearby, bid.
    const profile = await call(driver.accessToken, 'GET', '/driver/profile');
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ user_id: driver.id, status: 'approved', is_online: false, vehicle_category_id: 1 });
    const online = await call(driver.accessToken, 'PUT', '/driver/status', { is_online: true });
    expect(online.statusCode).toBe(200);
    expect(online.json().is_online).toBe(true);
    const location = await call(driver.accessToken, 'PUT', '/driver/location', { latitude: 52.52, longitude: 13.41, heading: 90 });
    expect(location.statusCode).toBe(200);
    const nearby = await call(driver.accessToken, 'GET', '/driver/rides/nearby');
    expect(nearby.statusCode).toBe(200);
    expect(nearby.json()).toEqual([expect.objectContaining({ id: rideId, distance_km: expect.any(Number) })]);
    const bid = await call(driver.accessToken, 'POST', `/driver/rides/${rideId}/bid`, { amount: 12.5, eta_minutes: 4 });
    expect(bid.statusCode).toBe(201);
    expect(bid.json()).toMatchObject({ ride_id: rideId, amount: 12.5, eta_minutes: 4, status: 'pending', driver: { id: driver.id } });

    // Passenger: bids list, accept.
    const bids = await call(passenger.accessToken, 'GET', `/rides/${rideId}/bids`);
    expect(bids.statusCode).toBe(200);
    expect(bids.json()).toHaveLength(1);
    const accepted = await call(passenger.accessToken, 'POST', `/rides/${rideId}/bids/${bid.json().id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'accepted', fare: 12.5, driver: { id: driver.id, vehicle: { make: 'Toyota' } } });

    // Driver: active ride, status updates.
    expect((await call(driver.accessToken, 'GET', '/driver/rides/active')).json()).toMatchObject({ ride: { id: rideId } });
    for (const status of ['driver_arrived', 'started', 'completed']) {
      const moved = await call(driver.accessToken, 'PUT', `/rides/${rideId}/status`, { status });
      expect(moved.statusCode).toBe(200);
      expect(moved.json().status).toBe(status);
    }
    expect((await call(driver.accessToken, 'GET', '/driver/rides/active')).json()).toEqual({ ride: null });
    const earnings = await call(driver.accessToken, 'GET', '/driver/earnings');
    expect(earnings.statusCode).toBe(200);
    expect(earnings.json()).toMatchObject({ currency: 'USD', today: 12.5, this_week: 12.5, this_month: 12.5, total: 12.5, rides_count: 1, page: 1, limit: 20 });
    expect(earnings.json().items).toEqual([expect.objectContaining({ ride_id: rideId, fare: 12.5, earning: 12.5, payment_method: 'cash' })]);

    // Passenger: history.
    expect((await call(passenger.accessToken, 'GET', '/passenger/rides/active')).json()).toEqual({ ride: null });
    const history = await call(passenger.accessToken, 'GET', '/passenger/rides?status=completed&page=1&limit=10');
    expect(history.statusCode).toBe(200);
    expect(history.json()).toMatchObject({ page: 1, limit: 10, total: 1, items: [{ id: rideId, status: 'completed' }] });

    const events = await t.db.query(`SELECT from_status, to_status, actor_role FROM ride_events WHERE ride_id = $1 ORDER BY id`, [rideId]);
    expect(events.map((e: { to_status: string }) => e.to_status)).toEqual(['requested', 'accepted', 'driver_arrived', 'started', 'completed']);
  });
});
