import { createHash } from 'node:crypto';
import { captureLog } from '../support/captured-log';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { acceptedRide, bookRide, cancel, Json, onlineDriver, setStatus } from '../rides/ride-helpers';

const BASE = 'https://rides.example.test';
const SHARED_KEYS = ['driver', 'driver_location', 'dropoff', 'pickup', 'status', 'updated_at'];

/** CONTRACT §11 "Trip sharing". The caches are on for a minute: every change seen here was an event's doing. */
describe('trip sharing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_BASE_URL: `${BASE}/`, SHARED_RIDE_CACHE_MS: '60000', RIDE_CACHE_MS: '60000' } });
  });
  afterAll(() => t.close());

  const share = (user: TestUser | undefined, rideId: string, payload?: Json) =>
    t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/share`, token: user?.accessToken, payload });
  const unshare = (user: TestUser | undefined, rideId: string) =>
    t.request({ method: 'DELETE', url: `/api/v1/rides/${rideId}/share`, token: user?.accessToken });
  const view = (token: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url: `/api/v1/shared-rides/${token}`, headers });

  async function tokenFor(passenger: TestUser, rideId: string): Promise<string> {
    const res = await share(passenger, rideId);
    expect(res.statusCode).toBe(201);
    return res.json().token;
  }

  async function liveRide(status: 'accepted' | 'driver_arrived' | 'started' | 'completed' = 'accepted') {
    const passenger = await createUser(t, { firstName: 'Zelda' });
    const ride = await acceptedRide(t, { passenger });
    const steps = ['driver_arrived', 'started', 'completed'];
    for (const step of steps.slice(0, steps.indexOf(status) + 1)) expect((await setStatus(t, ride.driver, ride.rideId, step)).statusCode).toBe(200);
    return ride;
  }

  it('the passenger of a requested ride gets a link: a random base64url token (≥ 128 bits) under PUBLIC_BASE_URL, stored hashed', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    const res = await share(passenger, ride.id);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'token', 'url']);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(Buffer.from(body.token, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(body.url).toBe(`${BASE}/api/v1/shared-rides/${body.token}`);
    expect(body.expires_at).toBeNull();
    expect(res.headers['cache-control']).toBe('no-store');

    const rows: Array<{ token_hash: string }> = await t.db.query(`SELECT token_hash FROM ride_share_links WHERE ride_id = $1`, [ride.id]);
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(body.token).digest('hex') }]);
    const second = (await share(passenger, ride.id)).json();
    expect(second.token).not.toBe(body.token);
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
  });

  it('anyone with the link sees the trip without logging in, and never a phone, an e-mail, a user id or the passenger name', async () => {
    const { passenger, driver, rideId } = await liveRide('accepted');
    const token = await tokenFor(passenger, rideId);
    const res = await view(token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(SHARED_KEYS);
    expect(body).toMatchObject({
      status: 'accepted',
      pickup: { address: 'Alexanderplatz 1, Berlin', latitude: 52.5219, longitude: 13.4132 },
      dropoff: { address: 'Potsdamer Platz 1, Berlin' },
      driver: { first_name: 'Dana', vehicle_make: 'Toyota', vehicle_model: 'Corolla', vehicle_color: 'White', vehicle_plate: `T${driver.id}`, rating: null },
    });
    expect(Object.keys(body.driver).sort()).toEqual(['first_name', 'rating', 'vehicle_color', 'vehicle_make', 'vehicle_model', 'vehicle_plate']);
    const text = res.body;
    for (const secret of [passenger.phone, passenger.email, driver.phone, driver.email, 'Zelda', '"id"', 'user_id', 'passenger', 'phone', 'email']) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/"[a-z_]*id"/);
  });

  it("shows the driver's live position from the latest heartbeat, and each status change at once", async () => {
    const { passenger, driver, rideId } = await liveRide('accepted');
    const token = await tokenFor(passenger, rideId);
    expect((await view(token)).json().driver_location).toBeNull();
    for (const [latitude, longitude] of [
      [52.52, 13.41],
      [52.521, 13.412],
    ]) {
      const beat = await t.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: { latitude, longitude } });
      expect(beat.statusCode).toBe(200);
      const location = (await view(token)).json().driver_location;
      expect(location).toEqual({ latitude, longitude, at: expect.any(String) });
      expect(new Date(location.at).toISOString()).toBe(location.at);
    }
    expect((await setStatus(t, driver, rideId, 'driver_arrived')).statusCode).toBe(200);
    expect((await view(token)).json().status).toBe('driver_arrived');
    expect((await setStatus(t, driver, rideId, 'started')).statusCode).toBe(200);
    expect((await view(token)).json()).toMatchObject({ status: 'started', driver_location: { latitude: 52.521 } });
    expect((await setStatus(t, driver, rideId, 'completed')).statusCode).toBe(200);
    const done = (await view(token)).json();
    expect(done).toMatchObject({ status: 'completed', driver_location: null });
    const [{ updated_at }] = await t.db.query(`SELECT updated_at FROM rides WHERE id = $1`, [rideId]);
    expect(done.updated_at).toBe(updated_at.toISOString());
  });

  it('a requested ride shows no driver; a cancellation shows at once', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    const token = await tokenFor(passenger, ride.id);
    expect((await view(token)).json()).toMatchObject({ status: 'requested', driver: null, driver_location: null });
    await cancel(t, passenger, ride.id);
    expect((await view(token)).json()).toMatchObject({ status: 'cancelled', driver: null, driver_location: null });
  });

  it('a link ends 30 minutes after the ride is final (completed or cancelled): 404 from then on', async () => {
    const recent = await liveRide('started');
    const recentToken = await tokenFor(recent.passenger, recent.rideId);
    expect((await setStatus(t, recent.driver, recent.rideId, 'completed')).statusCode).toBe(200);
    await t.db.query(`UPDATE rides SET completed_at = now() - interval '29 minutes' WHERE id = $1`, [recent.rideId]);
    expect((await view(recentToken)).statusCode).toBe(200);

    const old = await liveRide('started');
    const oldToken = await tokenFor(old.passenger, old.rideId);
    expect((await setStatus(t, old.driver, old.rideId, 'completed')).statusCode).toBe(200);
    await t.db.query(`UPDATE rides SET completed_at = now() - interval '31 minutes' WHERE id = $1`, [old.rideId]);
    const gone = await view(oldToken);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ statusCode: 404, error: 'Not Found', message: expect.any(String) });

    const cancelled = await liveRide('accepted');
    const cancelledToken = await tokenFor(cancelled.passenger, cancelled.rideId);
    expect((await cancel(t, cancelled.passenger, cancelled.rideId)).statusCode).toBe(200);
    await t.db.query(`UPDATE rides SET cancelled_at = now() - interval '31 minutes' WHERE id = $1`, [cancelled.rideId]);
    expect((await view(cancelledToken)).statusCode).toBe(404);
  });

  it('DELETE ends every link of the ride at once (204), even with the view cached; a new link works again', async () => {
    const { passenger, driver, rideId } = await liveRide('accepted');
    const first = await tokenFor(passenger, rideId);
    const second = await tokenFor(passenger, rideId);
    expect((await view(first)).statusCode).toBe(200);
    expect((await view(second)).statusCode).toBe(200);

    expect((await unshare(await createUser(t), rideId)).statusCode).toBe(404);
    expect((await unshare(driver, rideId)).statusCode).toBe(404);
    expect((await view(first)).statusCode).toBe(200);

    const res = await unshare(passenger, rideId);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await view(first)).statusCode).toBe(404);
    expect((await view(second)).statusCode).toBe(404);
    const third = await tokenFor(passenger, rideId);
    expect((await view(third)).statusCode).toBe(200);
    expect((await view(first)).statusCode).toBe(404);
  });

  it('only the passenger of a non-final ride may share: others 404, a final ride 409, no token 401, a body field 400', async () => {
    const { passenger, driver, rideId } = await liveRide('started');
    expect((await share(driver, rideId)).statusCode).toBe(404);
    expect((await share(await createUser(t), rideId)).statusCode).toBe(404);
    expect((await share(await onlineDriver(t), rideId)).statusCode).toBe(404);
    expect((await share(passenger, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await share(passenger, 'not-a-uuid')).statusCode).toBe(404);
    expect((await share(undefined, rideId)).statusCode).toBe(401);
    expect((await unshare(undefined, rideId)).statusCode).toBe(401);
    expect((await unshare(passenger, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await share(passenger, rideId, { expires_in: 60 })).statusCode).toBe(400);

    expect((await setStatus(t, driver, rideId, 'completed')).statusCode).toBe(200);
    const final = await share(passenger, rideId);
    expect(final.statusCode).toBe(409);
    expect(final.json()).toMatchObject({ statusCode: 409, error: 'Conflict' });
    const cancelled = await liveRide('accepted');
    await cancel(t, cancelled.passenger, cancelled.rideId);
    expect((await share(cancelled.passenger, cancelled.rideId)).statusCode).toBe(409);
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM ride_share_links WHERE ride_id = ANY($1::uuid[])`, [[rideId, cancelled.rideId]]);
    expect(count).toBe(0);
  });

  it('an unknown or malformed token is 404 in the error shape', async () => {
    for (const token of ['A'.repeat(43), 'short', 'x'.repeat(60), '%00', 'A'.repeat(42) + '!']) {
      const res = await view(encodeURIComponent(token));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found', message: 'Shared ride not found' });
    }
  });

  it('is served from memory between ride events (a second view reads no link row)', async () => {
    const { passenger, rideId } = await liveRide('accepted');
    const token = await tokenFor(passenger, rideId);
    expect((await view(token)).statusCode).toBe(200);
    await t.db.query(`DELETE FROM ride_share_links WHERE ride_id = $1`, [rideId]);
    expect((await view(token)).statusCode).toBe(200);
  });
});

describe('trip sharing: the public view is rate-limited per IP, and its token never reaches the log', () => {
  const log = captureLog('trace');
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SHARED_RIDE_RATE_LIMIT_PER_IP_PER_MINUTE: '3', SHARE_LINKS_PER_HOUR: '2' }, logger: log.logger });
  });
  afterAll(() => t.close());

  it('the 4th view in a minute from one IP is 429 with Retry-After; another IP is still served', async () => {
    const { passenger, rideId } = await acceptedRide(t);
    const token = (await t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/share`, token: passenger.accessToken })).json().token;
    const get = (ip: string) => t.request({ method: 'GET', url: `/api/v1/shared-rides/${token}`, remoteAddress: ip });
    for (let i = 0; i < 3; i += 1) expect((await get('203.0.113.7')).statusCode).toBe(200);
    const limited = await get('203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    // Unknown tokens count too: guessing costs the same budget.
    expect((await t.request({ method: 'GET', url: `/api/v1/shared-rides/${'B'.repeat(43)}`, remoteAddress: '203.0.113.7' })).statusCode).toBe(429);
    expect((await get('198.51.100.9')).statusCode).toBe(200);

    // Every view was logged (debug, and the 429 at info), by its route pattern only.
    expect(log.text()).toContain('/api/v1/shared-rides/:token');
    expect(log.text()).not.toContain(token);
  });

  it('a passenger makes at most SHARE_LINKS_PER_HOUR links an hour (429 with Retry-After, no row written)', async () => {
    const { passenger, rideId } = await acceptedRide(t);
    const post = () => t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/share`, token: passenger.accessToken });
    expect((await post()).statusCode).toBe(201);
    expect((await post()).statusCode).toBe(201);
    const third = await post();
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM ride_share_links WHERE ride_id = $1`, [rideId]);
    expect(count).toBe(2);
  });
});
