import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { bookingBody, bookRide, cancel, onlineDriver } from '../rides/ride-helpers';

/** OWASP API6: the money-moving flows have per-user rates (BOOKING_RATE_LIMIT_PER_HOUR, BID_RATE_LIMIT_PER_MINUTE). */
describe('API6 business flows: booking and bidding rates per user are bounded', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { BOOKING_RATE_LIMIT_PER_HOUR: '3', BID_RATE_LIMIT_PER_MINUTE: '2' } });
  });
  afterAll(() => t.close());

  it('a passenger booking and cancelling in a loop gets 429 with Retry-After, and no ride is written', async () => {
    const passenger = await createUser(t);
    for (let i = 0; i < 3; i += 1) {
      const ride = await bookRide(t, passenger);
      expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
    }
    const refused = await t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload: bookingBody() });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM rides WHERE passenger_id = $1`, [passenger.id]);
    expect(n).toBe(3);
    // Another passenger is not affected.
    expect((await t.request({ method: 'POST', url: '/api/v1/rides/book', token: (await createUser(t)).accessToken, payload: bookingBody() })).statusCode).toBe(
      201,
    );
  });

  it('a driver re-bidding in a loop gets 429 with Retry-After; the stored bid is the last accepted one', async () => {
    const driver = await onlineDriver(t);
    const ride = await bookRide(t, await createUser(t));
    const bid = (amount: number) =>
      t.request({ method: 'POST', url: `/api/v1/driver/rides/${ride.id}/bid`, token: driver.accessToken, payload: { amount, eta_minutes: 3 } });
    expect((await bid(10)).statusCode).toBe(201);
    expect((await bid(11)).statusCode).toBe(201);
    const refused = await bid(12);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const [row] = await t.db.query(`SELECT amount_minor FROM bids WHERE ride_id = $1 AND driver_id = $2`, [ride.id, driver.id]);
    expect(Number(row.amount_minor)).toBe(1100);
  });
});
