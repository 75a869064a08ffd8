import { randomUUID } from 'node:crypto';
import { EventBus } from '../../src/common/events/event-bus';
import { UserError } from '../../src/modules/users/users.errors';
import { UsersService } from '../../src/modules/users/users.service';
import { createUser } from '../support/factories';
import { TestApp } from '../support/test-app';
import { freshEmail, PNG_1X1, post, signUp, startAuthApp, verifyContact } from '../auth/auth-helpers';
import { describeWithRedis, startRedis, TestRedis } from '../support/redis';
import { eventsCrossed } from '../realtime/live-client';

const PUBLIC_FIELDS = [
  'id',
  'phone',
  'email',
  'first_name',
  'last_name',
  'role',
  'is_verified',
  'is_phone_verified',
  'is_email_verified',
  'is_active',
  'is_blocked',
  'profile_picture',
  'created_at',
].sort();
const DRIVER_FIELDS = [
  'user_id',
  'status',
  'is_online',
  'vehicle_category_id',
  'vehicle_make',
  'vehicle_model',
  'vehicle_plate',
  'vehicle_color',
  'vehicle_year',
  'license_number',
  'rating',
  'ratings_count',
  'last_location',
  'last_location_at',
  'payouts_enabled',
].sort();

let rideCodes = 0;

async function insertRide(t: TestApp, passengerId: number | null, driverId: number | null, status: string): Promise<string> {
  const id = randomUUID();
  rideCodes += 1;
  await t.db.query(
    `INSERT INTO rides (id, ride_code, status, ride_type, passenger_id, driver_id, vehicle_category_id,
                        pickup_address, pickup_latitude, pickup_longitude, dropoff_address, dropoff_latitude, dropoff_longitude,
                        passenger_count, payment_method, estimate, estimated_fare_minor, currency, expires_at)
     VALUES ($1, $2, $3, 'one_way', $4, $5, 1, 'A', 52.5, 13.4, 'B', 52.51, 13.41, 1, 'cash', '{}', 1000, 'USD', now() + interval '10 minutes')`,
    [id, `T${String(rideCodes).padStart(5, '0')}`.slice(0, 6), status, passengerId, driverId],
  );
  return id;
}

function get(t: TestApp, url: string, token: string) {
  return t.request({ method: 'GET', url, token });
}

function put(t: TestApp, payload: object, token: string) {
  return t.request({ method: 'PUT', url: '/api/v1/auth/profile', payload, token });
}

function del(t: TestApp, token: string) {
  return t.request({ method: 'DELETE', url: '/api/v1/auth/account', token });
}

describe('me, profile, account deletion, blocking', () => {
  let t: TestApp;
  const revoked: Array<{ user_id: number; reason: string }> = [];
  beforeAll(async () => {
    // A 5 s auth-state cache lets a request reach the service for a user deleted behind its back ("User not found").
    t = await startAuthApp({ USER_STATE_CACHE_MS: '5000', PROFILE_PICTURE_MAX_BYTES: '4096' });
    t.get(EventBus).subscribe('user.access_revoked', (payload) => {
      revoked.push(payload);
    });
  });
  afterAll(() => t.close());

  describe('GET /api/v1/auth/me', () => {
    it('a passenger: exactly the public fields plus wallet {balance, currency}; no driver, no internal fields', async () => {
      const user = await createUser(t, { walletBalanceMinor: 1234 });
      const res = await get(t, '/api/v1/auth/me', user.accessToken);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      // ride_pin: the start-PIN setting (CONTRACT §14), the user's own.
      expect(Object.keys(body).sort()).toEqual([...PUBLIC_FIELDS, 'wallet', 'ride_pin'].sort());
      expect(body.wallet).toEqual({ balance: 12.34, currency: 'USD' });
      expect(body.ride_pin).toBe('off');
      expect(body).toMatchObject({ id: user.id, phone: user.phone, email: user.email, role: 'passenger' });
    });

    it('a driver: adds the driver record with the CONTRACT 4a fields', async () => {
      const driver = await createUser(t, { role: 'driver' });
      await t.db.query(`UPDATE drivers SET last_latitude = 52.5, last_longitude = 13.4, last_location_at = now() WHERE user_id = $1`, [driver.id]);
      const body = (await get(t, '/api/v1/auth/me', driver.accessToken)).json();
      expect(Object.keys(body.driver).sort()).toEqual(DRIVER_FIELDS);
      expect(body.driver).toMatchObject({
        user_id: driver.id,
        status: 'approved',
        is_online: false,
        vehicle_category_id: 1,
        vehicle_make: 'Toyota',
        vehicle_year: 2021,
        rating: null,
        ratings_count: 0,
        last_location: { latitude: 52.5, longitude: 13.4 },
      });
      expect(body.driver.last_location_at).toMatch(/Z$/);
    });

    it('a verified user who has not registered: wallet null', async () => {
      const verified = await verifyContact(t, { email: freshEmail() });
      const body = (await get(t, '/api/v1/auth/me', verified.access_token)).json();
      expect(body.wallet).toBeNull();
      expect(body.role).toBe('passenger');
    });

    it('a user deleted behind the cached auth state: 404 User not found', async () => {
      const user = await createUser(t);
      expect((await get(t, '/api/v1/auth/me', user.accessToken)).statusCode).toBe(200);
      await t.db.query(`DELETE FROM users WHERE id = $1`, [user.id]);
      const res = await get(t, '/api/v1/auth/me', user.accessToken);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'User not found' });
      const update = await put(t, { first_name: 'X' }, user.accessToken);
      expect(update.statusCode).toBe(404);
      expect(update.json().message).toBe('User not found');
      const deletion = await del(t, user.accessToken);
      expect(deletion.statusCode).toBe(404);
      expect(deletion.json().message).toBe('User not found');
    });
  });

  describe('PUT /api/v1/auth/profile', () => {
    it('applies only supplied fields', async () => {
      const user = await createUser(t, { firstName: 'Paula' });
      const res = await put(t, { last_name: 'Smith' }, user.accessToken);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ first_name: 'Paula', last_name: 'Smith', email: user.email, phone: user.phone });
      expect(Object.keys(res.json()).sort()).toEqual(PUBLIC_FIELDS);
      expect((await put(t, {}, user.accessToken)).json()).toMatchObject({ first_name: 'Paula', last_name: 'Smith' });
    });

    it('a new e-mail is normalised and no longer counts as verified', async () => {
      const email = freshEmail();
      const signed = await signUp(t, { email });
      await verifyContact(t, { email });
      const fresh = freshEmail();
      const res = await put(t, { email: `  ${fresh.toUpperCase()} ` }, signed.access_token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email: fresh, is_email_verified: false });
    });

    it("another user's e-mail: 409 Email already in use (any case)", async () => {
      const other = await createUser(t);
      const user = await createUser(t);
      const res = await put(t, { email: other.email.toUpperCase() }, user.accessToken);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Email already in use' });
      expect((await put(t, { email: user.email }, user.accessToken)).statusCode).toBe(200);
    });

    it('role, phone and account flags cannot be changed: 400, nothing written', async () => {
      const user = await createUser(t);
      for (const body of [{ role: 'driver' }, { phone: '+15550000000' }, { is_blocked: false }, { is_verified: true }, { first_name: 'A', is_active: true }]) {
        const res = await put(t, body, user.accessToken);
        expect(res.statusCode).toBe(400);
      }
      expect(await t.db.query(`SELECT role, first_name FROM users WHERE id = $1`, [user.id])).toEqual([{ role: 'passenger', first_name: 'Paula' }]);
      expect((await put(t, { email: 'nope' }, user.accessToken)).statusCode).toBe(400);
    });

    it('a new picture replaces the old one (whose file is removed); a non-image is 400; too large is 413', async () => {
      const user = await createUser(t);
      const first = (await put(t, { profile_picture_base64: PNG_1X1 }, user.accessToken)).json().profile_picture as string;
      expect(first).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
      expect((await t.request({ method: 'GET', url: first })).statusCode).toBe(200);
      const second = (await put(t, { profile_picture_base64: `data:image/png;base64,${PNG_1X1}` }, user.accessToken)).json().profile_picture;
      expect(second).not.toBe(first);
      expect((await t.request({ method: 'GET', url: first })).statusCode).toBe(404);
      expect((await t.request({ method: 'GET', url: second })).statusCode).toBe(200);
      const bad = await put(t, { profile_picture_base64: Buffer.from('<svg/>').toString('base64') }, user.accessToken);
      expect(bad.statusCode).toBe(400);
      const big = Buffer.concat([Buffer.from(PNG_1X1, 'base64'), Buffer.alloc(8192)]).toString('base64');
      expect((await put(t, { profile_picture_base64: big }, user.accessToken)).statusCode).toBe(413);
      expect(await t.db.query(`SELECT profile_picture FROM users WHERE id = $1`, [user.id])).toEqual([{ profile_picture: second }]);
    });
  });

  describe('DELETE /api/v1/auth/account', () => {
    it('refused with 409 while the user has a live ride, as passenger or as driver', async () => {
      const passenger = await createUser(t);
      const driver = await createUser(t, { role: 'driver' });
      await insertRide(t, passenger.id, driver.id, 'accepted');
      for (const user of [passenger, driver]) {
        const res = await del(t, user.accessToken);
        expect(res.statusCode).toBe(409);
        expect(res.json().error).toBe('Conflict');
      }
      const waiting = await createUser(t);
      await insertRide(t, waiting.id, null, 'requested');
      expect((await del(t, waiting.accessToken)).statusCode).toBe(409);
      expect(await t.db.query(`SELECT count(*)::int AS n FROM users WHERE id = ANY($1)`, [[passenger.id, driver.id, waiting.id]])).toEqual([{ n: 3 }]);
    });

    it('any → deleted: the user, own unshared rides and driver record go; shared rides and the wallet ledger stay; sessions end', async () => {
      const driver = await createUser(t, { role: 'driver' });
      const passenger = await createUser(t, { walletBalanceMinor: 500 });
      const shared = await insertRide(t, passenger.id, driver.id, 'completed');
      const unshared = await insertRide(t, passenger.id, null, 'expired');
      const [{ id: walletId }] = await t.db.query(`SELECT id FROM wallets WHERE user_id = $1`, [passenger.id]);
      revoked.length = 0;

      const res = await del(t, passenger.accessToken);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Account deleted' });
      expect(await t.db.query(`SELECT 1 FROM users WHERE id = $1`, [passenger.id])).toEqual([]);
      expect(await t.db.query(`SELECT 1 FROM rides WHERE id = $1`, [unshared])).toEqual([]);
      expect(await t.db.query(`SELECT passenger_id, driver_id FROM rides WHERE id = $1`, [shared])).toEqual([{ passenger_id: null, driver_id: driver.id }]);
      expect(await t.db.query(`SELECT user_id, balance_minor FROM wallets WHERE id = $1`, [walletId])).toEqual([{ user_id: null, balance_minor: 500 }]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(revoked).toEqual([{ user_id: passenger.id, reason: 'deleted' }]);
      expect((await get(t, '/api/v1/auth/me', passenger.accessToken)).statusCode).toBe(401);
      expect((await post(t, 'refresh-token', { refresh_token: passenger.refreshToken })).statusCode).toBe(401);

      // The driver's side: deleting the driver removes the driver record, the ride keeps the passenger's (here: none).
      expect((await del(t, driver.accessToken)).statusCode).toBe(200);
      expect(await t.db.query(`SELECT 1 FROM drivers WHERE user_id = $1`, [driver.id])).toEqual([]);
      expect(await t.db.query(`SELECT passenger_id, driver_id FROM rides WHERE id = $1`, [shared])).toEqual([{ passenger_id: null, driver_id: null }]);
    });

    it('the phone and e-mail are free again: send-otp creates a new pending user', async () => {
      const signed = await signUp(t);
      expect((await del(t, signed.access_token)).statusCode).toBe(200);
      const again = await verifyContact(t, { phone: signed.phone });
      expect(again.is_registered).toBe(false);
      expect(again.user.id).not.toBe(signed.user.id);
    });
  });

  describe('UsersService.setBlocked (operator CLI)', () => {
    it('blocks: refresh token dropped, access token refused at once, access_revoked published; unblock restores access', async () => {
      const user = await createUser(t);
      expect((await get(t, '/api/v1/auth/me', user.accessToken)).statusCode).toBe(200);
      revoked.length = 0;
      const blocked = await t.get(UsersService).setBlocked(user.id, true, { actorId: null, reason: 'in a test' });
      expect(blocked).toMatchObject({ id: user.id, is_blocked: true });
      await new Promise((resolve) => setImmediate(resolve));
      expect(revoked).toEqual([{ user_id: user.id, reason: 'blocked' }]);
      expect((await get(t, '/api/v1/auth/me', user.accessToken)).statusCode).toBe(403);
      expect(await t.db.query(`SELECT refresh_token_hash FROM users WHERE id = $1`, [user.id])).toEqual([{ refresh_token_hash: null }]);
      const unblocked = await t.get(UsersService).setBlocked(user.id, false, { actorId: null, reason: 'in a test' });
      expect(unblocked.is_blocked).toBe(false);
      expect((await get(t, '/api/v1/auth/me', user.accessToken)).statusCode).toBe(200);
      expect(revoked).toHaveLength(1);
    });

    it('an unknown user: USER_NOT_FOUND', async () => {
      await expect(t.get(UsersService).setBlocked(987654, true, { actorId: null, reason: 'in a test' })).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
      await expect(t.get(UsersService).setBlocked(987654, true, { actorId: null, reason: 'in a test' })).rejects.toBeInstanceOf(UserError);
    });
  });
});

describeWithRedis('blocking across instances (event bus over Redis)', () => {
  let redis: TestRedis;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    redis = await startRedis();
    a = await startAuthApp({ REDIS_URL: redis.url, USER_STATE_CACHE_MS: '5000' });
    b = await startAuthApp({ REDIS_URL: redis.url, USER_STATE_CACHE_MS: '5000' }, { databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  it("a block on one instance ends the other instance's cached auth state at once", async () => {
    const user = await createUser(a);
    expect((await get(b, '/api/v1/auth/me', user.accessToken)).statusCode).toBe(200);
    await a.get(UsersService).setBlocked(user.id, true, { actorId: null, reason: 'in a test' });
    // As soon as the event has crossed, not after the 5 s the cache would otherwise hold the old state.
    await eventsCrossed([a, b]);
    expect((await get(b, '/api/v1/auth/me', user.accessToken)).statusCode).toBe(403);
  });
});
