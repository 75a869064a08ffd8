import { buildOpenApiDocument } from '../../src/bootstrap/openapi';
import { AppConfig, ConfigError } from '../../src/config/app-config';
import { freshPhone, startAuthApp } from '../auth/auth-helpers';
import { LiveClient } from '../realtime/live-client';
import { bookingBody, bookRide, onlineDriver } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { TEST_JWT_SECRET, TestApp } from '../support/test-app';
import { API, expectError, json, RoleRoute, roleRoutes, startOwaspApp, tableCounts } from './owasp-helpers';

/** OWASP API Security Top 10 (2023), API4 to API8 (API1 to API3: owasp.e2e-spec.ts). */

describe('OWASP API Security Top 10 (2023): API4 to API8', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startOwaspApp();
  });
  afterAll(() => t?.close());

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
        for (const [role, user] of [
          ['passenger', passenger],
          ['driver', driver],
        ] as const) {
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
      expect(AppConfig.fromEnv({ NODE_ENV: 'production', JWT_SECRET: TEST_JWT_SECRET, SMTP_URL: 'smtp://mail.test', MAIL_FROM: 'a@mail.test' }).nodeEnv).toBe(
        'production',
      );
    });

    it('OTP_DEV_FIXED_CODE refuses a production start-up and is ignored in test', () => {
      expect(() => AppConfig.fromEnv({ NODE_ENV: 'production', JWT_SECRET: TEST_JWT_SECRET, OTP_DEV_FIXED_CODE: '123456' })).toThrow(ConfigError);
      expect(AppConfig.fromEnv({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, OTP_DEV_FIXED_CODE: '123456' }).otpDevFixedCode).toBeUndefined();
      expect(AppConfig.fromEnv({ NODE_ENV: 'development', OTP_DEV_FIXED_CODE: '123456' }).otpDevFixedCode).toBe('123456');
    });
  });
});
