import { EventBus } from '../../src/common/events/event-bus';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { bookingBody, bookRide, cancel } from './ride-helpers';

describe('POST /api/v1/rides/book', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Surge off: its multiplier follows the open requests this file books, so a later estimate could differ from an earlier one.
    t = await startTestApp({ env: { RIDE_REQUEST_TTL_MINUTES: '7', SURGE_MAX_MULTIPLIER: '1' } });
  });
  afterAll(() => t.close());

  const book = (token: string, payload: object, key?: string) =>
    t.request({ method: 'POST', url: '/api/v1/rides/book', token, payload, headers: key ? { 'idempotency-key': key } : {} });

  it('creates a requested ride with the stored estimate, a ride code and an expiry, and announces it', async () => {
    const passenger = await createUser(t);
    const seen: unknown[] = [];
    const off = t.get(EventBus).subscribe('ride.requested', (e) => void seen.push(e));
    const before = Date.now();
    const res = await book(passenger.accessToken, bookingBody({ passenger_count: 3, children: 1 }));
    expect(res.statusCode).toBe(201);
    const ride = res.json();
    expect(ride).toMatchObject({
      status: 'requested',
      ride_type: 'one_way',
      vehicle_category_id: 1,
      passenger_count: 3,
      children: 1,
      payment_method: 'cash',
      fare: null,
      currency: 'USD',
      driver: null,
      passenger: { id: passenger.id, first_name: 'Paula' },
      return_location: null,
      cancelled_by: null,
    });
    expect(ride.ride_code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/);
    expect(ride.estimate.breakdown.total).toBeGreaterThan(0);
    const ttl = Date.parse(ride.expires_at) - before;
    expect(ttl).toBeGreaterThan(7 * 60_000 - 5000);
    expect(ttl).toBeLessThan(7 * 60_000 + 5000);
    await new Promise((r) => setImmediate(r));
    off();
    expect(seen).toEqual([expect.objectContaining({ ride_id: ride.id, passenger_id: passenger.id, vehicle_category_id: 1, ride })]);
  });

  it('one non-final ride per passenger (409), a new one once it is cancelled', async () => {
    const passenger = await createUser(t);
    const first = await bookRide(t, passenger);
    const again = await book(passenger.accessToken, bookingBody());
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You already have a ride in progress');
    await cancel(t, passenger, first.id);
    expect((await book(passenger.accessToken, bookingBody())).statusCode).toBe(201);
  });

  it('Idempotency-Key: same key and body → same ride (200); other body → 409; other key → new booking rules', async () => {
    const passenger = await createUser(t);
    const body = bookingBody({ passenger_count: 2 });
    const first = await book(passenger.accessToken, body, 'retry-1');
    expect(first.statusCode).toBe(201);
    const replay = await book(passenger.accessToken, { ...body, dropoff: body.dropoff, pickup: body.pickup }, 'retry-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.json().id).toBe(first.json().id);
    const different = await book(passenger.accessToken, { ...body, passenger_count: 3 }, 'retry-1');
    expect(different.statusCode).toBe(409);
    expect(different.json().message).toBe('Idempotency-Key was already used with a different request body');
    // Keys are per user: another passenger's identical key books their own ride.
    const other = await createUser(t);
    const theirs = await book(other.accessToken, body, 'retry-1');
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(first.json().id);
    const bad = await book(other.accessToken, body, 'x'.repeat(201));
    expect(bad.statusCode).toBe(400);
  });

  it('a wallet booking needs a wallet; its balance is checked only at accept', async () => {
    const passenger = await createUser(t);
    expect((await book(passenger.accessToken, bookingBody({ payment_method: 'wallet' }))).statusCode).toBe(201);
  });

  it('counts a promo use at booking and stops applying it at the limit', async () => {
    await t.db.query(`INSERT INTO promo_codes (code, discount_type, discount_value, usage_limit) VALUES ('ONCE', 'fixed', 100, 1)`);
    const a = await createUser(t);
    const b = await createUser(t);
    const first = await bookRide(t, a, { promo_code: 'once' });
    expect(first.estimate.promo).toEqual({ code: 'ONCE', applied: true, reason: null, discount: 1 });
    expect(first.promo_code).toBe('ONCE');
    const second = await bookRide(t, b, { promo_code: 'ONCE' });
    expect(second.estimate.promo).toMatchObject({ applied: false, reason: 'Promo code usage limit reached' });
    expect(second.estimate.breakdown.total).toBe(first.estimate.breakdown.total + 1);
    const [{ used_count }] = await t.db.query(`SELECT used_count FROM promo_codes WHERE code = 'ONCE'`);
    expect(used_count).toBe(1);
  });

  it('validates like estimate and requires payment_method and vehicle_category_id', async () => {
    const passenger = await createUser(t);
    for (const [field, body] of [
      ['payment_method', bookingBody({ payment_method: undefined })],
      ['vehicle_category_id', bookingBody({ vehicle_category_id: undefined })],
      ['vehicle_category_id', bookingBody({ vehicle_category_id: 42 })],
      ['return_scheduled_at', bookingBody({ ride_type: 'round_trip', return_scheduled_at: 'tomorrow' })],
    ] as const) {
      const res = await book(passenger.accessToken, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM rides WHERE passenger_id = $1`, [passenger.id]);
    expect(n).toBe(0);
  });

  it('round_trip and per_hour bookings keep their scheduling fields', async () => {
    const p1 = await createUser(t);
    const later = new Date(Date.now() + 3 * 3600_000).toISOString();
    const trip = await bookRide(t, p1, {
      ride_type: 'round_trip',
      return_location: { address: 'Zoo', latitude: 52.5079, longitude: 13.3378 },
      return_scheduled_at: later,
    });
    expect(trip).toMatchObject({ ride_type: 'round_trip', return_location: { address: 'Zoo' }, return_scheduled_at: later });
    const p2 = await createUser(t);
    const hourly = await bookRide(t, p2, { ride_type: 'per_hour', duration_minutes: 120, end_scheduled_at: later });
    expect(hourly).toMatchObject({ ride_type: 'per_hour', duration_minutes: 120, end_scheduled_at: later });
  });

  it('history pages newest first and filters by status', async () => {
    const passenger = await createUser(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const ride = await bookRide(t, passenger);
      ids.push(ride.id);
      await cancel(t, passenger, ride.id);
    }
    await bookRide(t, passenger);
    const page = (await t.request({ method: 'GET', url: '/api/v1/passenger/rides?status=cancelled&limit=2&page=1', token: passenger.accessToken })).json();
    expect(page).toMatchObject({ page: 1, limit: 2, total: 3 });
    expect(page.items.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]]);
    const all = (await t.request({ method: 'GET', url: '/api/v1/passenger/rides', token: passenger.accessToken })).json();
    expect(all).toMatchObject({ page: 1, limit: 20, total: 4 });
    const bad = await t.request({ method: 'GET', url: '/api/v1/passenger/rides?limit=500', token: passenger.accessToken });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses a scheduled time without Z or an offset (400 naming the field), and writes nothing', async () => {
    const passenger = await createUser(t);
    const local = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 19); // 2026-11-22T12:00:00
    const res = await book(passenger.accessToken, bookingBody({ ride_type: 'per_hour', duration_minutes: 60, end_scheduled_at: local }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, details: [{ field: 'end_scheduled_at' }] });
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM rides WHERE passenger_id = $1`, [passenger.id]);
    expect(n).toBe(0);
    const withOffset = await book(passenger.accessToken, bookingBody({ ride_type: 'per_hour', duration_minutes: 60, end_scheduled_at: `${local}+00:00` }));
    expect(withOffset.statusCode).toBe(201);
  });
});
