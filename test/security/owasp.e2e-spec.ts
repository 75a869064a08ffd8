import type { ErrorBody } from '../../src/common/http/error-body';
import { createHmac, generateKeyPairSync, sign as rsaSign } from 'node:crypto';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { LightMyRequestResponse } from 'fastify';
import { buildOpenApiDocument } from '../../src/bootstrap/openapi';
import { ROLES } from '../../src/common/auth/auth.decorators';
import { AppConfig, ConfigError } from '../../src/config/app-config';
import { DEV_CODE, freshPhone, post, signUp, startAuthApp } from '../auth/auth-helpers';
import { LiveClient } from '../realtime/live-client';
import { bookingBody, bookRide, onlineDriver, placeBid } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { TEST_JWT_SECRET, TestApp } from '../support/test-app';

/** OWASP API Security Top 10 (2023), one describe per risk that applies to this service. */

const API = '/api/v1';
const json = { 'content-type': 'application/json' };

function expectError(res: LightMyRequestResponse, status: number): ErrorBody {
  expect([res.statusCode, res.body]).toEqual([status, expect.any(String)]);
  const body = res.json() as ErrorBody;
  expect(body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
  return body;
}

const b64 = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function hmacJwt(header: object, claims: object, secret: string, hash: 'sha256' | 'sha512' = 'sha256'): string {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${createHmac(hash, secret).update(input).digest('base64url')}`;
}

async function tableCounts(t: TestApp): Promise<Record<string, number>> {
  const [row] = await t.db.query(
    `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM rides)::int AS rides,
            (SELECT count(*) FROM bids)::int AS bids, (SELECT count(*) FROM wallets)::int AS wallets,
            (SELECT count(*) FROM wallet_ledger_entries)::int AS ledger`,
  );
  return row;
}

interface RoleRoute {
  method: string;
  url: string;
  openApiPath: string;
  roles: string[];
}

/** Every route with role metadata, read from the controllers Nest registered (not a hand-written list). */
function roleRoutes(t: TestApp): RoleRoute[] {
  const routes: RoleRoute[] = [];
  const join = (...parts: string[]): string => '/' + parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/');
  for (const module of t.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!controller) continue;
      const classRoles: string[] | undefined = Reflect.getMetadata(ROLES, controller);
      const base: string = Reflect.getMetadata(PATH_METADATA, controller) ?? '';
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path: string | undefined = Reflect.getMetadata(PATH_METADATA, handler);
        if (path === undefined) continue;
        const roles: string[] | undefined = Reflect.getMetadata(ROLES, handler) ?? classRoles;
        if (!roles?.length) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const full = join(API, base, path);
        routes.push({
          method,
          url: full.replace(/:[a-z_]+/g, '00000000-0000-4000-8000-000000000000'),
          openApiPath: full.replace(/:([a-z_]+)/g, '{$1}'),
          roles,
        });
      }
    }
  }
  return routes;
}

describe('OWASP API Security Top 10 (2023)', () => {
  let t: TestApp;
  let publicKey: string;
  let privateKey: string;

  beforeAll(async () => {
    t = await startAuthApp({
      BODY_LIMIT_BYTES: '65536',
      PROFILE_PICTURE_MAX_BYTES: '4096',
      WS_MAX_PAYLOAD_BYTES: '1024',
      WS_MAX_MESSAGES_PER_SECOND: '20',
    });
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

    const me = (authorization?: string) =>
      t.request({ method: 'GET', url: `${API}/auth/me`, headers: authorization === undefined ? {} : { authorization } });

    it('a token this service signed works (the control case)', async () => {
      expect((await me(`Bearer ${hmacJwt({ alg: 'HS256', typ: 'JWT' }, claims, TEST_JWT_SECRET)}`)).statusCode).toBe(200);
    });

    it.each([
      ['no Authorization header', () => undefined],
      ['an empty bearer', () => 'Bearer '],
      ['another scheme', () => `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['not a JWT', () => 'Bearer not.a.jwt'],
      ['a forged signature (other secret)', () => `Bearer ${hmacJwt({ alg: 'HS256', typ: 'JWT' }, claims, 'another-secret-that-is-at-least-32-bytes!!')}`],
      ['a tampered payload', () => {
        const [h, , s] = user.accessToken.split('.');
        return `Bearer ${h}.${b64({ ...claims, sub: String(user.id + 1) })}.${s}`;
      }],
      ['an expired token', () => {
        const now = Math.floor(Date.now() / 1000);
        return `Bearer ${hmacJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now - 3600, exp: now - 60 }, TEST_JWT_SECRET)}`;
      }],
      ['a refresh token (wrong type)', () => `Bearer ${user.refreshToken}`],
      ['type missing', () => `Bearer ${hmacJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, type: undefined }, TEST_JWT_SECRET)}`],
      ['alg none', () => `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`],
      ['alg None with a signature', () => `Bearer ${hmacJwt({ alg: 'None', typ: 'JWT' }, claims, TEST_JWT_SECRET)}`],
      ['HS512 with the right secret', () => `Bearer ${hmacJwt({ alg: 'HS512', typ: 'JWT' }, claims, TEST_JWT_SECRET, 'sha512')}`],
      ['RS256 signed with a key pair', () => {
        const input = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(claims)}`;
        return `Bearer ${input}.${rsaSign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
      }],
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
        const res = await t.request({ method: 'POST', url: `${API}/driver/rides/${ride.id}/bid`, payload: { amount: 5, eta_minutes: 3, ...extra }, token: driver.accessToken });
        expectError(res, 400);
      }
      for (const extra of [{ fare: 1 }, { driver_id: driver.id }]) {
        const res = await t.request({ method: 'PUT', url: `${API}/rides/${ride.id}/status`, payload: { status: 'driver_arrived', ...extra }, token: driver.accessToken });
        expectError(res, 400);
      }
      for (const extra of [{ status: 'approved' }, { rating: 5 }, { user_id: passenger.id }]) {
        const res = await t.request({ method: 'PUT', url: `${API}/driver/profile`, payload: { vehicle_make: 'Kia', ...extra }, token: driver.accessToken });
        expectError(res, 400);
      }
      expect(await tableCounts(t)).toEqual(before);
      const [row] = await t.db.query(`SELECT d.status, d.vehicle_make, r.status AS ride_status FROM drivers d, rides r WHERE d.user_id = $1 AND r.id = $2`, [driver.id, ride.id]);
      expect(row).toEqual({ status: 'approved', vehicle_make: 'Toyota', ride_status: 'requested' });
    });
  });

  describe('API4 unrestricted resource consumption', () => {
    it('a body over BODY_LIMIT_BYTES: 413', async () => {
      const payload = JSON.stringify({ phone: '+15550001234', padding: 'x'.repeat(70_000) });
      expectError(await t.request({ method: 'POST', url: `${API}/auth/send-otp`, payload, headers: json }), 413);
    });

    it('a body nested deeper than 32 levels: 400', async () => {
      const payload = '{"a":'.repeat(40) + '1' + '}'.repeat(40);
      expectError(await t.request({ method: 'POST', url: `${API}/auth/send-otp`, payload, headers: json }), 400);
    });

    it('a profile picture over PROFILE_PICTURE_MAX_BYTES: 413', async () => {
      const user = await createUser(t);
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
      const big = Buffer.concat([Buffer.from(png, 'base64'), Buffer.alloc(8192)]).toString('base64');
      expectError(await t.request({ method: 'PUT', url: `${API}/auth/profile`, payload: { profile_picture_base64: big }, token: user.accessToken }), 413);
    });

    it('a page size over 100: 400; 100 is fine', async () => {
      const passenger = await createUser(t);
      expectError(await t.request({ method: 'GET', url: `${API}/passenger/rides?limit=101`, token: passenger.accessToken }), 400);
      expect((await t.request({ method: 'GET', url: `${API}/passenger/rides?limit=100`, token: passenger.accessToken })).statusCode).toBe(200);
    });

    it('a nearby radius over 50 km: 400; 50 is fine', async () => {
      const driver = await onlineDriver(t);
      const url = `${API}/driver/rides/nearby?latitude=52.52&longitude=13.41&radius_km=`;
      expectError(await t.request({ method: 'GET', url: `${url}51`, token: driver.accessToken }), 400);
      expect((await t.request({ method: 'GET', url: `${url}50`, token: driver.accessToken })).statusCode).toBe(200);
    });

    it('a WebSocket frame over WS_MAX_PAYLOAD_BYTES closes with 1009; a message flood with 1008', async () => {
      const user = await createUser(t);
      const big = await LiveClient.connect(t, user.accessToken);
      big.send({ type: 'ping', padding: 'x'.repeat(2048) });
      expect((await big.closed).code).toBe(1009);
      const flooder = await LiveClient.connect(t, user.accessToken);
      for (let i = 0; i < 300; i += 1) flooder.send({ type: 'ping' });
      expect((await flooder.closed).code).toBe(1008);
    });
  });

  describe('API5 broken function-level authorization', () => {
    let passenger: TestUser;
    let driver: TestUser;
    let routes: RoleRoute[];
    beforeAll(async () => {
      passenger = await createUser(t);
      driver = await onlineDriver(t);
      routes = roleRoutes(t);
    });

    it('the role-restricted routes come from the controllers and are all in the OpenAPI document', () => {
      const document = buildOpenApiDocument(t.app);
      expect(routes.filter((r) => r.roles.includes('driver') && !r.roles.includes('passenger')).length).toBeGreaterThanOrEqual(8);
      expect(routes.filter((r) => r.roles.includes('passenger') && !r.roles.includes('driver')).length).toBeGreaterThanOrEqual(4);
      for (const route of routes) {
        expect([route.method, route.openApiPath, Boolean(document.paths[route.openApiPath]?.[route.method.toLowerCase() as 'get'])]).toEqual([
          route.method,
          route.openApiPath,
          true,
        ]);
      }
    });

    it('every driver-only route refuses a passenger token and every passenger-only route a driver token (403); nothing changes', async () => {
      const before = await tableCounts(t);
      for (const route of routes) {
        for (const [role, user] of [['passenger', passenger], ['driver', driver]] as const) {
          if (route.roles.includes(role)) continue;
          const res = await t.request({
            method: route.method as 'GET',
            url: route.url,
            ...(route.method === 'GET' ? {} : { payload: {} }),
            token: user.accessToken,
          });
          expect([role, route.method, route.url, res.statusCode]).toEqual([role, route.method, route.url, 403]);
          expectError(res, 403);
        }
      }
      expect(await tableCounts(t)).toEqual(before);
    });
  });

  describe('API6 unrestricted access to sensitive business flows', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await startAuthApp(
        { OTP_RESEND_COOLDOWN_SECONDS: '30', OTP_MAX_PER_HOUR: '10', AUTH_RATE_LIMIT_PER_IP_PER_MINUTE: '3' },
        { databaseUrl: t.databaseUrl },
      );
    });
    afterAll(() => limited?.close());

    it('send-otp twice for one contact within the cooldown: 429 with Retry-After', async () => {
      const phone = freshPhone();
      const send = () => limited.request({ method: 'POST', url: `${API}/auth/send-otp`, payload: { phone }, remoteAddress: '10.6.0.1' });
      expect((await send()).statusCode).toBe(200);
      const second = await send();
      expectError(second, 429);
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('the auth endpoints are limited per IP: the fourth request of a minute is 429 with Retry-After, another IP is not', async () => {
      const send = (ip: string) => limited.request({ method: 'POST', url: `${API}/auth/send-otp`, payload: { phone: freshPhone() }, remoteAddress: ip });
      for (let i = 0; i < 3; i += 1) expect((await send('10.6.0.2')).statusCode).toBe(200);
      const fourth = await send('10.6.0.2');
      expectError(fourth, 429);
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
      expect((await send('10.6.0.3')).statusCode).toBe(200);
    });

    it('one live ride per passenger: a second booking is 409 and creates nothing', async () => {
      const passenger = await createUser(t);
      await bookRide(t, passenger);
      const before = await tableCounts(t);
      expectError(await t.request({ method: 'POST', url: `${API}/rides/book`, payload: bookingBody(), token: passenger.accessToken }), 409);
      expect(await tableCounts(t)).toEqual(before);
    });
  });

  describe('API8 security misconfiguration', () => {
    it('security headers on success and error responses', async () => {
      const user = await createUser(t);
      for (const res of [
        await t.request({ method: 'GET', url: `${API}/auth/me`, token: user.accessToken }),
        await t.request({ method: 'GET', url: `${API}/auth/me` }),
        await t.request({ method: 'GET', url: `${API}/nowhere` }),
      ]) {
        expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });
        expect(res.headers['x-powered-by']).toBeUndefined();
      }
    });

    it('CORS is closed by default: a preflight from an unknown origin gets no Access-Control-Allow-Origin', async () => {
      const res = await t.request({
        method: 'OPTIONS',
        url: `${API}/auth/me`,
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const simple = await t.request({ method: 'GET', url: `${API}/rides/categories`, headers: { origin: 'https://evil.example' } });
      expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('production refuses to start without JWT_SECRET or with one under 32 bytes', () => {
      expect(() => AppConfig.fromEnv({ NODE_ENV: 'production' })).toThrow(ConfigError);
      expect(() => AppConfig.fromEnv({ NODE_ENV: 'production', JWT_SECRET: 'short-secret' })).toThrow(ConfigError);
      expect(() => AppConfig.fromEnv({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(31) })).toThrow(ConfigError);
      expect(AppConfig.fromEnv({ NODE_ENV: 'production', JWT_SECRET: TEST_JWT_SECRET, SMTP_URL: 'smtp://mail.test', MAIL_FROM: 'a@mail.test' }).nodeEnv).toBe('production');
    });

    it('OTP_DEV_FIXED_CODE refuses a production start-up and is ignored in test', () => {
      expect(() => AppConfig.fromEnv({ NODE_ENV: 'production', JWT_SECRET: TEST_JWT_SECRET, OTP_DEV_FIXED_CODE: '123456' })).toThrow(ConfigError);
      expect(AppConfig.fromEnv({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, OTP_DEV_FIXED_CODE: '123456' }).otpDevFixedCode).toBeUndefined();
      expect(AppConfig.fromEnv({ NODE_ENV: 'development', OTP_DEV_FIXED_CODE: '123456' }).otpDevFixedCode).toBe('123456');
    });
  });
});
