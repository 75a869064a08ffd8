import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { accept, bookingBody, bookRide, cancel, onlineDriver, placeBid, PICKUP } from './ride-helpers';

/** CONTRACT §11, the passenger's own price: offered_fare at booking and PUT /rides/{id}/offer. */
describe('the passenger’s own price (offered_fare)', () => {
  let t: TestApp;
  let estimateTotal: number;

  beforeAll(async () => {
    // Surge off: its multiplier follows the open requests this file books, so the estimate read here could differ from booking's.
    t = await startTestApp({ env: { MIN_OFFER_PERCENT: '80', SURGE_MAX_MULTIPLIER: '1' } });
    const probe = await createUser(t);
    const res = await t.request({ method: 'POST', url: '/api/v1/rides/estimate', token: probe.accessToken, payload: bookingBody() });
    estimateTotal = res.json().breakdown.total;
  });
  afterAll(() => t.close());

  const book = (passenger: TestUser, overrides: object) =>
    t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload: bookingBody(overrides) });
  const raise = (user: TestUser, rideId: string, payload: unknown) =>
    t.request({ method: 'PUT', url: `/api/v1/rides/${rideId}/offer`, token: user.accessToken, payload: payload as object });
  /** MIN_OFFER_PERCENT (80 here) of the estimate's total, rounded up to the cent. */
  const minimum = () => Math.ceil(estimateTotal * 80 - 1e-9) / 100;

  it('a ride booked without an offer carries offered_fare null', async () => {
    const ride = await bookRide(t, await createUser(t));
    expect(ride.offered_fare).toBeNull();
  });

  it('books with an offer of at least MIN_OFFER_PERCENT % of the estimated total, and shows it to drivers in nearby', async () => {
    const passenger = await createUser(t);
    const res = await book(passenger, { offered_fare: minimum() });
    expect(res.statusCode).toBe(201);
    const ride = res.json();
    expect(ride.offered_fare).toBe(minimum());
    const [row] = await t.db.query(`SELECT offered_fare_minor FROM rides WHERE id = $1`, [ride.id]);
    expect(row.offered_fare_minor).toBe(Math.round(minimum() * 100));

    const driver = await onlineDriver(t);
    const nearby = await t.request({
      method: 'GET',
      url: `/api/v1/driver/rides/nearby?latitude=${PICKUP.latitude}&longitude=${PICKUP.longitude}`,
      token: driver.accessToken,
    });
    expect(nearby.json().find((r: { id: string }) => r.id === ride.id)).toMatchObject({ offered_fare: minimum() });
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
  });

  it('refuses an offer below the minimum with a 400 naming offered_fare, and writes nothing', async () => {
    const passenger = await createUser(t);
    const below = Math.round((minimum() - 0.01) * 100) / 100;
    const res = await book(passenger, { offered_fare: below });
    expect(res.statusCode).toBe(400);
    const message = `offered_fare must be at least ${minimum().toFixed(2)} (80% of the estimated total ${estimateTotal.toFixed(2)})`;
    expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message, details: [{ field: 'offered_fare', message }] });
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM rides WHERE passenger_id = $1`, [passenger.id]);
    expect(count).toBe(0);
  });

  it.each([
    [12.345, 'offered_fare must have at most 2 decimal places'],
    [0, 'offered_fare must not be less than 0.01'],
    ['12', 'offered_fare must be a number conforming to the specified constraints'],
    [100000.01, 'offered_fare must not be greater than 100000'],
  ])('refuses offered_fare %p at booking: %s', async (value, message) => {
    const res = await book(await createUser(t), { offered_fare: value });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toContainEqual({ field: 'offered_fare', message });
  });

  it('lets the passenger raise the offer while requested: 200 with the ride, stored and seen in the details', async () => {
    const passenger = await createUser(t);
    const ride = (await book(passenger, { offered_fare: 20 })).json();
    // Read once first, so that the details below would come from the ride cache if the raise did not clear it.
    expect((await t.request({ method: 'GET', url: `/api/v1/rides/${ride.id}`, token: passenger.accessToken })).json().offered_fare).toBe(20);
    const res = await raise(passenger, ride.id, { offered_fare: 22.5 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: ride.id, status: 'requested', offered_fare: 22.5 });
    const details = await t.request({ method: 'GET', url: `/api/v1/rides/${ride.id}`, token: passenger.accessToken });
    expect(details.json().offered_fare).toBe(22.5);
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
  });

  it('refuses a raise that is not strictly higher, or has more than 2 decimals (400), and keeps the offer', async () => {
    const passenger = await createUser(t);
    const ride = (await book(passenger, { offered_fare: 20 })).json();
    for (const value of [20, 19.99]) {
      const res = await raise(passenger, ride.id, { offered_fare: value });
      expect(res.statusCode).toBe(400);
      const message = 'offered_fare must be higher than the current offer (20.00)';
      expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message, details: [{ field: 'offered_fare', message }] });
    }
    const decimals = await raise(passenger, ride.id, { offered_fare: 20.001 });
    expect(decimals.statusCode).toBe(400);
    expect(decimals.json().details).toEqual([{ field: 'offered_fare', message: 'offered_fare must have at most 2 decimal places' }]);
    for (const body of [{}, { offered_fare: 25, tip: 1 }, null]) expect((await raise(passenger, ride.id, body)).statusCode).toBe(400);
    const [row] = await t.db.query(`SELECT offered_fare_minor FROM rides WHERE id = $1`, [ride.id]);
    expect(row.offered_fare_minor).toBe(2000);
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
  });

  it('a ride booked without an offer may get one, held to the booking minimum of its stored estimate', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    // The ride's own stored estimate: surge may have moved since the estimate above (this file's rides are demand).
    const stored = (ride as unknown as { estimate: { breakdown: { total: number } } }).estimate.breakdown.total;
    const floor = Math.ceil(stored * 80 - 1e-9) / 100;
    const low = await raise(passenger, ride.id, { offered_fare: Math.round((floor - 0.01) * 100) / 100 });
    expect(low.statusCode).toBe(400);
    expect(low.json().message).toBe(`offered_fare must be at least ${floor.toFixed(2)} (80% of the estimated total ${stored.toFixed(2)})`);
    const ok = await raise(passenger, ride.id, { offered_fare: floor });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().offered_fare).toBe(floor);
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
  });

  it('is the passenger’s alone: another passenger gets 404, a driver 403, an unknown or malformed id 404', async () => {
    const passenger = await createUser(t);
    const ride = (await book(passenger, { offered_fare: 20 })).json();
    const other = await raise(await createUser(t), ride.id, { offered_fare: 30 });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Ride not found' });
    expect((await raise(await onlineDriver(t), ride.id, { offered_fare: 30 })).statusCode).toBe(403);
    expect((await raise(passenger, '3f1c7d1e-0000-4000-8000-00000000dead', { offered_fare: 30 })).statusCode).toBe(404);
    expect((await raise(passenger, 'not-a-uuid', { offered_fare: 30 })).statusCode).toBe(404);
    const unauthenticated = await t.request({ method: 'PUT', url: `/api/v1/rides/${ride.id}/offer`, payload: { offered_fare: 30 } });
    expect(unauthenticated.statusCode).toBe(401);
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
  });

  it('concurrent raises to one value: one 200, the rest 400 (each judged against the offer the one before left)', async () => {
    const passenger = await createUser(t);
    const ride = (await book(passenger, { offered_fare: 20 })).json();
    const results = await Promise.all(Array.from({ length: 6 }, () => raise(passenger, ride.id, { offered_fare: 21 })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
  });

  it('is refused once the ride is no longer requested (409), or its time is up', async () => {
    const passenger = await createUser(t);
    const driver = await onlineDriver(t);
    const ride = (await book(passenger, { offered_fare: 20 })).json();
    const bid = await placeBid(t, driver, ride.id, 20);
    expect((await accept(t, passenger, ride.id, bid.id)).statusCode).toBe(200);
    const accepted = await raise(passenger, ride.id, { offered_fare: 25 });
    expect(accepted.statusCode).toBe(409);
    expect(accepted.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Ride is no longer open for bids' });
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
    expect((await raise(passenger, ride.id, { offered_fare: 25 })).statusCode).toBe(409);

    const late = (await book(passenger, { offered_fare: 20 })).json();
    await t.db.query(`UPDATE rides SET expires_at = now() - interval '1 second' WHERE id = $1`, [late.id]);
    expect((await raise(passenger, late.id, { offered_fare: 25 })).statusCode).toBe(409);
  });
});
