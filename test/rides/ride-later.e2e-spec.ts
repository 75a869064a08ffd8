import { LiveClient } from '../realtime/live-client';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { bookLater, minutesAhead, scheduledList, scheduledRide } from './ride-later-helpers';
import { bookRide, bookingBody, cancel, onlineDriver } from './ride-helpers';

/** CONTRACT §11 "Ride later": booking with pickup_at, the scheduled status, its list and its limits. */
describe('ride later: booking for later', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The dispatcher's timer stays out of these tests (a ride 15 minutes ahead is due at once).
    t = await startTestApp({ env: { RIDE_DISPATCH_SWEEP_SECONDS: '3600' } });
  });
  afterAll(() => t.close());

  it('starts the ride scheduled, carrying pickup_at; its request would expire TTL after dispatch', async () => {
    const passenger = await createUser(t);
    const pickupAt = new Date(Date.now() + 2 * 3600_000);
    // An offset other than Z names the same instant.
    const local = new Date(pickupAt.getTime() + 3600_000).toISOString().replace('Z', '+01:00');
    const res = await bookLater(t, passenger, local);
    expect(res.statusCode).toBe(201);
    const ride = res.json();
    expect(ride).toMatchObject({ status: 'scheduled', pickup_at: pickupAt.toISOString(), fare: null, driver: null });
    const dispatchAt = pickupAt.getTime() - t.config.dispatchLeadMinutes * 60_000;
    expect(Date.parse(ride.expires_at)).toBe(dispatchAt + t.config.rideRequestTtlMinutes * 60_000);
    const details = await t.request({ method: 'GET', url: `/api/v1/rides/${ride.id}`, token: passenger.accessToken });
    expect(details.json()).toMatchObject({ id: ride.id, status: 'scheduled', pickup_at: pickupAt.toISOString() });
  });

  it('gives a ride now pickup_at null', async () => {
    const ride = await bookRide(t, await createUser(t));
    expect(ride.pickup_at).toBeNull();
    expect(ride.status).toBe('requested');
  });

  const RANGE = 'pickup_at must be between 15 minutes and 7 days from now';
  it.each([
    ['5 minutes ahead', () => minutesAhead(5), RANGE],
    ['14 minutes ahead', () => minutesAhead(14), RANGE],
    ['in the past', () => minutesAhead(-60), RANGE],
    ['more than 7 days ahead', () => minutesAhead(7 * 24 * 60 + 5), RANGE],
    ['without an offset', () => minutesAhead(60).replace('Z', ''), undefined],
    ['not a date', () => 'tomorrow at noon', undefined],
    ['not a string', () => 1767225600000, undefined],
  ])('refuses pickup_at %s with a 400 naming the field, writing nothing', async (_, value, message) => {
    const passenger = await createUser(t);
    const res = await t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload: bookingBody({ pickup_at: value() }) });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(typeof body.message).toBe('string');
    expect(body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'pickup_at' })]));
    if (message) expect(body).toMatchObject({ message, details: [{ field: 'pickup_at', message }] });
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM rides WHERE passenger_id = $1`, [passenger.id]);
    expect(n).toBe(0);
  });

  it('accepts the bounds: 15 minutes ahead as the client sent it, and just under 7 days', async () => {
    expect((await bookLater(t, await createUser(t), minutesAhead(15))).statusCode).toBe(201);
    expect((await bookLater(t, await createUser(t), minutesAhead(7 * 24 * 60 - 1))).statusCode).toBe(201);
  });

  it('lists scheduled rides soonest first as {items, page, limit, total}, and in the history', async () => {
    const passenger = await createUser(t);
    const late = await scheduledRide(t, passenger, minutesAhead(300));
    const soon = await scheduledRide(t, passenger, minutesAhead(100));
    const list = await scheduledList(t, passenger);
    expect(list).toMatchObject({ page: 1, limit: 20, total: 2 });
    expect(list.items.map((r) => r.id)).toEqual([soon.id, late.id]);
    expect(list.items[0]).toEqual(soon);
    const second = await scheduledList(t, passenger, '?page=2&limit=1');
    expect(second).toMatchObject({ page: 2, limit: 1, total: 2 });
    expect(second.items.map((r) => r.id)).toEqual([late.id]);
    const history = await t.request({ method: 'GET', url: '/api/v1/passenger/rides?status=scheduled', token: passenger.accessToken });
    expect(
      history
        .json()
        .items.map((r: { id: string }) => r.id)
        .sort(),
    ).toEqual([soon.id, late.id].sort());
    // Only the caller's: another passenger sees an empty list.
    expect(await scheduledList(t, await createUser(t))).toEqual({ items: [], page: 1, limit: 20, total: 0 });
  });

  it('refuses the scheduled list to drivers and bad paging', async () => {
    const driver = await createUser(t, { role: 'driver' });
    expect((await t.request({ method: 'GET', url: '/api/v1/passenger/rides/scheduled', token: driver.accessToken })).statusCode).toBe(403);
    const passenger = await createUser(t);
    const bad = await t.request({ method: 'GET', url: '/api/v1/passenger/rides/scheduled?limit=101', token: passenger.accessToken });
    expect(bad.statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/api/v1/passenger/rides/scheduled' })).statusCode).toBe(401);
  });

  it('lets the passenger cancel a scheduled ride (it leaves the list); nobody else may', async () => {
    const passenger = await createUser(t);
    const ride = await scheduledRide(t, passenger);
    const stranger = await onlineDriver(t);
    expect((await cancel(t, stranger, ride.id)).statusCode).toBe(404);
    const res = await cancel(t, passenger, ride.id, 'Plans changed');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', cancelled_by: 'passenger', cancel_reason: 'Plans changed' });
    expect((await scheduledList(t, passenger)).total).toBe(0);
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(409);
  });

  it('holds at most 3 scheduled rides per passenger (409 beyond); a cancelled one frees its place', async () => {
    const passenger = await createUser(t);
    const rides = [];
    for (let i = 1; i <= 3; i += 1) rides.push(await scheduledRide(t, passenger, minutesAhead(60 * i)));
    const fourth = await bookLater(t, passenger, minutesAhead(400));
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'You already have the maximum number of scheduled rides' });
    expect((await cancel(t, passenger, rides[0]!.id)).statusCode).toBe(200);
    expect((await bookLater(t, passenger, minutesAhead(400))).statusCode).toBe(201);
  });

  it('does not count scheduled rides as the live ride: a ride now books beside them, still only one', async () => {
    const passenger = await createUser(t);
    for (let i = 1; i <= 3; i += 1) await scheduledRide(t, passenger, minutesAhead(60 * i));
    const now = await t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload: bookingBody() });
    expect(now.statusCode).toBe(201);
    const second = await t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload: bookingBody() });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('You already have a ride in progress');
  });

  it('books for later while a ride is live', async () => {
    const passenger = await createUser(t);
    await bookRide(t, passenger);
    expect((await bookLater(t, passenger)).statusCode).toBe(201);
  });

  it('lets only the allowed number of concurrent bookings for later through', async () => {
    const passenger = await createUser(t);
    await scheduledRide(t, passenger, minutesAhead(30));
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => bookLater(t, passenger, minutesAhead(60 + i))));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 409, 409, 409, 409]);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM rides WHERE passenger_id = $1 AND status = 'scheduled'`, [passenger.id]);
    expect(n).toBe(3);
  });

  it('answers a retried booking for later with the same ride (Idempotency-Key), not a second one', async () => {
    const passenger = await createUser(t);
    const payload = bookingBody({ pickup_at: minutesAhead(90) });
    const send = () =>
      t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload, headers: { 'idempotency-key': 'later-1' } });
    const first = await send();
    const again = await send();
    expect([first.statusCode, again.statusCode]).toEqual([201, 200]);
    expect(again.json()).toEqual(first.json());
    expect((await scheduledList(t, passenger)).total).toBe(1);
  });

  it('lets a passenger holding only scheduled rides delete the account, and the rides go with it', async () => {
    const passenger = await createUser(t);
    const ride = await scheduledRide(t, passenger);
    const res = await t.request({ method: 'DELETE', url: '/api/v1/auth/account', token: passenger.accessToken });
    expect(res.statusCode).toBe(200);
    expect(await t.db.query(`SELECT id FROM rides WHERE id = $1`, [ride.id])).toEqual([]);
  });

  it('keeps ride codes unique among non-final rides, scheduled ones included (CONTRACT §1)', async () => {
    const live = await bookRide(t, await createUser(t));
    const later = await scheduledRide(t, await createUser(t));
    await expect(t.db.query(`UPDATE rides SET ride_code = $1 WHERE id = $2`, [live.ride_code, later.id])).rejects.toThrow(/rides_code_live_uq/);
  });

  it('keeps a scheduled ride out of the active ride, the snapshot, nearby and bids', async () => {
    const passenger = await createUser(t);
    const ride = await scheduledRide(t, passenger, minutesAhead(20));
    const active = await t.request({ method: 'GET', url: '/api/v1/passenger/rides/active', token: passenger.accessToken });
    expect(active.json()).toEqual({ ride: null });
    const live = await LiveClient.connect(t, passenger.accessToken);
    expect(live.received[0]!.data).toEqual({ ride: null });
    await live.close();
    const driver = await onlineDriver(t);
    const nearby = await t.request({ method: 'GET', url: '/api/v1/driver/rides/nearby?radius_km=50', token: driver.accessToken });
    expect(nearby.json().map((r: { id: string }) => r.id)).not.toContain(ride.id);
    const bid = await t.request({
      method: 'POST',
      url: `/api/v1/driver/rides/${ride.id}/bid`,
      token: driver.accessToken,
      payload: { amount: 10, eta_minutes: 3 },
    });
    expect(bid.statusCode).toBe(409);
    expect((await t.request({ method: 'GET', url: `/api/v1/rides/${ride.id}`, token: driver.accessToken })).statusCode).toBe(404);
  });
});
