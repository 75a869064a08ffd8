import { createHmac, generateKeyPairSync, sign as rsaSign } from 'node:crypto';
import { DEV_CODE, freshPhone, post, signUp } from '../auth/auth-helpers';
import { bookingBody, bookRide, onlineDriver, placeBid } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { TEST_JWT_SECRET, TestApp } from '../support/test-app';
import { API, expectError, json, startOwaspApp, tableCounts } from './owasp-helpers';

/** OWASP API Security Top 10 (2023), one describe per risk that applies to this service (API4 on: owasp-limits.e2e-spec.ts). */

const b64 = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function hmacJwt(header: object, claims: object, secret: string, hash: 'sha256' | 'sha512' = 'sha256'): string {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${createHmac(hash, secret).update(input).digest('base64url')}`;
}

describe('OWASP API Security Top 10 (2023): API1 to API3', () => {
  let t: TestApp;
  let publicKey: string;
  let privateKey: string;

  beforeAll(async () => {
    t = await startOwaspApp();
    ({ publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    }));
  });
  afterAll(() => t?.close());

  describe('API1 broken object-level authorization', () => {
    it("another passenger's ride, its bids and its acceptance: 404 without data; nothing changes", async () => {
      const owner = await createUser(t, { walletBalanceMinor: 12_345 });
      const stranger = await createUser(t);
      const driver = await onlineDriver(t);
      const ride = await bookRide(t, owner);
      const bid = await placeBid(t, driver, ride.id);
      const before = await tableCounts(t);
      const attempts = [
        { method: 'GET' as const, url: `${API}/rides/${ride.id}` },
        { method: 'POST' as const, url: `${API}/rides/${ride.id}/cancel`, payload: {} },
        { method: 'GET' as const, url: `${API}/rides/${ride.id}/bids` },
        { method: 'POST' as const, url: `${API}/rides/${ride.id}/bids/${bid.id}/accept` },
      ];
      for (const attempt of attempts) {
        const res = await t.request({ ...attempt, token: stranger.accessToken });
        expect(expectError(res, 404).message).toBe('Ride not found');
        expect(res.body).not.toContain(ride.ride_code);
      }
      const mine = await t.request({ method: 'GET', url: `${API}/rides/${ride.id}`, token: owner.accessToken });
      expect(mine.json()).toMatchObject({ status: 'requested', fare: null, driver: null });
      expect(await tableCounts(t)).toEqual(before);
    });

    it('another driver cannot move, cancel or read a ride assigned to someone else', async () => {
      const owner = await createUser(t);
      const driver = await onlineDriver(t);
      const other = await onlineDriver(t);
      const ride = await bookRide(t, owner);
      const bid = await placeBid(t, driver, ride.id);
      const accepted = await t.request({ method: 'POST', url: `${API}/rides/${ride.id}/bids/${bid.id}/accept`, token: owner.accessToken });
      expect(accepted.statusCode).toBe(200);
      const status = await t.request({ method: 'PUT', url: `${API}/rides/${ride.id}/status`, payload: { status: 'driver_arrived' }, token: other.accessToken });
      expectError(status, 404);
      expectError(await t.request({ method: 'POST', url: `${API}/rides/${ride.id}/cancel`, payload: {}, token: other.accessToken }), 404);
      expectError(await t.request({ method: 'GET', url: `${API}/rides/${ride.id}`, token: other.accessToken }), 404);
      const [row] = await t.db.query(`SELECT status FROM rides WHERE id = $1`, [ride.id]);
      expect(row.status).toBe('accepted');
    });

    it("the wallet endpoint shows only the caller's own wallet", async () => {
      const rich = await createUser(t, { walletBalanceMinor: 98_765 });
      const poor = await createUser(t);
      const mine = await t.request({ method: 'GET', url: `${API}/wallet`, token: poor.accessToken });
      expect(mine.statusCode).toBe(200);
      expect(mine.body).not.toContain('987.65');
      // There is no way to name another wallet: an id in the query is ignored and the caller's own wallet comes back.
      const theirs = await t.request({ method: 'GET', url: `${API}/wallet?user_id=${rich.id}&wallet_id=1`, token: poor.accessToken });
      expect(theirs.body).not.toContain('987.65');
      expect(theirs.json()).toEqual(mine.json());
      expect((await t.request({ method: 'GET', url: `${API}/wallet`, token: rich.accessToken })).body).toContain('987.65');
    });
  });

  describe('API2 broken authentication', () => {
    let user: TestUser;
    let claims: Record<string, unknown>;
    beforeAll(async () => {
      user = await createUser(t);
      const now = Math.floor(Date.now() / 1000);
      claims = { sub: String(user.id), role: 'passenger', type: 'access', iat: now, exp: now + 600 };
    });

    const me = (authorization?: string) => t.request({ method: 'GET', url: `${API}/auth/me`, headers: authorization === undefined ? {} : { authorization } });

    it('a token this service signed works (the control case)', async () => {
      expect((await me(`Bearer ${hmacJwt({ alg: 'HS256', typ: 'JWT' }, claims, TEST_JWT_SECRET)}`)).statusCode).toBe(200);
    });

    it.each([
      ['no Authorization header', () => undefined],
      ['an empty bearer', () => 'Bearer '],
      ['another scheme', () => `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['not a JWT', () => 'Bearer not.a.jwt'],
      ['a forged signature (other secret)', () => `Bearer ${hmacJwt({ alg: 'HS256', typ: 'JWT' }, claims, 'another-secret-that-is-at-least-32-bytes!!')}`],
      [
        'a tampered payload',
        () => {
          const [h, , s] = user.accessToken.split('.');
          return `Bearer ${h}.${b64({ ...claims, sub: String(user.id + 1) })}.${s}`;
        },
      ],
      [
        'an expired token',
        () => {
          const now = Math.floor(Date.now() / 1000);
          return `Bearer ${hmacJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now - 3600, exp: now - 60 }, TEST_JWT_SECRET)}`;
        },
      ],
      ['a refresh token (wrong type)', () => `Bearer ${user.refreshToken}`],
      ['type missing', () => `Bearer ${hmacJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, type: undefined }, TEST_JWT_SECRET)}`],
      ['alg none', () => `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`],
      ['alg None with a signature', () => `Bearer ${hmacJwt({ alg: 'None', typ: 'JWT' }, claims, TEST_JWT_SECRET)}`],
      ['HS512 with the right secret', () => `Bearer ${hmacJwt({ alg: 'HS512', typ: 'JWT' }, claims, TEST_JWT_SECRET, 'sha512')}`],
      [
        'RS256 signed with a key pair',
        () => {
          const input = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(claims)}`;
          return `Bearer ${input}.${rsaSign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
        },
      ],
      ['RS256 header, HMAC with the public key as secret (key confusion)', () => `Bearer ${hmacJwt({ alg: 'RS256', typ: 'JWT' }, claims, publicKey)}`],
      ['a user that does not exist', () => `Bearer ${hmacJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, sub: '999999999' }, TEST_JWT_SECRET)}`],
    ])('%s: 401', async (_label, header) => {
      expectError(await me(header()), 401);
    });

    it('OTP guessing: after 5 wrong codes the OTP is void, the right code fails until a new send-otp', async () => {
      const phone = freshPhone();
      expect((await post(t, 'send-otp', { phone })).statusCode).toBe(200);
      for (let i = 0; i < 5; i += 1) expect(expectError(await post(t, 'verify-otp', { phone, otp: '000000' }), 400).message).toBe('Invalid OTP');
      expect(expectError(await post(t, 'verify-otp', { phone, otp: DEV_CODE }), 400).message).toBe('Invalid OTP');
      expect((await post(t, 'send-otp', { phone })).statusCode).toBe(200);
      expect((await post(t, 'verify-otp', { phone, otp: DEV_CODE })).statusCode).toBe(200);
    });

    it('replaying a rotated refresh token: 401 and the whole session is revoked', async () => {
      const session = await signUp(t);
      const rotated = await post(t, 'refresh-token', { refresh_token: session.refresh_token });
      expect(rotated.statusCode).toBe(200);
      const current = rotated.json() as { access_token: string; refresh_token: string };
      expect(expectError(await post(t, 'refresh-token', { refresh_token: session.refresh_token }), 401).message).toBe('Invalid refresh token');
      expectError(await post(t, 'refresh-token', { refresh_token: current.refresh_token }), 401);
      expectError(await t.request({ method: 'GET', url: `${API}/auth/me`, token: current.access_token }), 401);
    });
  });

  describe('API3 broken object-property-level authorization (mass assignment)', () => {
    it.each([
      ['role', 'driver'],
      ['is_verified', false],
      ['is_blocked', false],
      ['is_active', true],
      ['phone', '+15550009999'],
      ['balance', 1000],
      ['wallet', { balance: 1000 }],
      ['id', 1],
      ['__proto__', { role: 'driver' }],
    ])('profile update with %s: 400 and the user row is unchanged', async (field, value) => {
      const user = await createUser(t);
      const [before] = await t.db.query(`SELECT * FROM users WHERE id = $1`, [user.id]);
      const payload = `{"first_name":"Mallory",${JSON.stringify(field)}:${JSON.stringify(value)}}`;
      expectError(await t.request({ method: 'PUT', url: `${API}/auth/profile`, payload, headers: json, token: user.accessToken }), 400);
      expect(await t.db.query(`SELECT * FROM users WHERE id = $1`, [user.id])).toEqual([before]);
    });

    it.each(['is_verified', 'is_blocked', 'is_active', 'balance', 'driver_status', 'id'])('register with %s: 400, still unregistered', async (field) => {
      const phone = freshPhone();
      await post(t, 'send-otp', { phone });
      const verified = (await post(t, 'verify-otp', { phone, otp: DEV_CODE })).json();
      const res = await post(t, 'register', { role: 'passenger', first_name: 'A', last_name: 'B', [field]: true }, verified.access_token);
      expectError(res, 400);
      const [row] = await t.db.query(`SELECT is_registered FROM users WHERE id = $1`, [verified.user.id]);
      expect(row.is_registered).toBe(false);
    });

    it.each([
      ['fare', 1],
      ['status', 'accepted'],
      ['driver_id', 1],
      ['passenger_id', 1],
      ['currency', 'EUR'],
      ['estimate', { total: 0 }],
    ])('booking with %s: 400 and no ride', async (field, value) => {
      const passenger = await createUser(t);
      const before = await tableCounts(t);
      expectError(await t.request({ method: 'POST', url: `${API}/rides/book`, payload: bookingBody({ [field]: value }), token: passenger.accessToken }), 400);
      expect(await tableCounts(t)).toEqual(before);
    });

    it('bid, ride status and driver profile bodies refuse privileged fields; nothing changes', async () => {
      const passenger = await createUser(t);
      const driver = await onlineDriver(t);
      const ride = await bookRide(t, passenger);
      const before = await tableCounts(t);
      for (const extra of [{ status: 'accepted' }, { driver_id: passenger.id }, { ride_id: ride.id }]) {
        const res = await t.request({
          method: 'POST',
          url: `${API}/driver/rides/${ride.id}/bid`,
          payload: { amount: 5, eta_minutes: 3, ...extra },
          token: driver.accessToken,
        });
        expectError(res, 400);
      }
      for (const extra of [{ fare: 1 }, { driver_id: driver.id }]) {
        const res = await t.request({
          method: 'PUT',
          url: `${API}/rides/${ride.id}/status`,
          payload: { status: 'driver_arrived', ...extra },
          token: driver.accessToken,
        });
        expectError(res, 400);
      }
      for (const extra of [{ status: 'approved' }, { rating: 5 }, { user_id: passenger.id }]) {
        const res = await t.request({ method: 'PUT', url: `${API}/driver/profile`, payload: { vehicle_make: 'Kia', ...extra }, token: driver.accessToken });
        expectError(res, 400);
      }
      expect(await tableCounts(t)).toEqual(before);
      const [row] = await t.db.query(`SELECT d.status, d.vehicle_make, r.status AS ride_status FROM drivers d, rides r WHERE d.user_id = $1 AND r.id = $2`, [
        driver.id,
        ride.id,
      ]);
      expect(row).toEqual({ status: 'approved', vehicle_make: 'Toyota', ride_status: 'requested' });
    });
  });
});
