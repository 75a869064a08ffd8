import type { ErrorBody } from '../../src/common/http/error-body';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { LiveClient } from '../realtime/live-client';

const TOO_DEEP = 'Request body is nested too deeply (at most 32 levels)';
const ADMIN = 'https://admin.example.com';

const arrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const json = { 'content-type': 'application/json' };

type Response = { statusCode: number; headers: Record<string, unknown>; json: () => unknown };

function expectErrorShape(res: Response, status: number): ErrorBody {
  expect(res.statusCode).toBe(status);
  const body = res.json() as ErrorBody;
  expect(body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
  return body;
}

function expectSecurityHeaders(res: Response, hsts: boolean): void {
  expect(res.headers).toMatchObject({
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  });
  if (hsts) expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  else expect(res.headers['strict-transport-security']).toBeUndefined();
}

const corsHeaders = (res: Response): string[] => Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));

describe('request limits, security headers and CORS', () => {
  /** Defaults: CORS off, TRUST_PROXY off. */
  let t: TestApp;
  /** CORS_ORIGINS set, behind a TLS proxy. */
  let behindProxy: TestApp;
  let passenger: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    behindProxy = await startTestApp({ databaseUrl: t.databaseUrl, env: { TRUST_PROXY: 'true', CORS_ORIGINS: `${ADMIN},http://localhost:5173` } });
    passenger = await createUser(t);
  });
  afterAll(async () => {
    await behindProxy?.close();
    await t?.close();
  });

  describe('JSON nesting depth', () => {
    it.each([
      ['2,000 nested arrays', `{"phone":"+15550001234","x":${arrays(2000)}}`],
      ['5,000 nested objects', objects(5000)],
      ['33 levels', `{"phone":"+15550001234","x":${arrays(32)}}`],
    ])('send-otp with %s is a 400 in the error shape', async (_label, payload) => {
      const res = await t.request({ method: 'POST', url: '/api/v1/auth/send-otp', payload, headers: json });
      expect(expectErrorShape(res, 400)).toEqual({ statusCode: 400, error: 'Bad Request', message: TOO_DEEP, details: [{ field: 'body', message: TOO_DEEP }] });
    });

    it.each([
      ['2,000 nested arrays', `{"first_name":${arrays(2000)}}`],
      ['5,000 nested objects', objects(5000)],
    ])('an authenticated endpoint with %s is a 400, not a 500', async (_label, payload) => {
      const res = await t.request({ method: 'PUT', url: '/api/v1/auth/profile', payload, headers: json, token: passenger.accessToken });
      expect(expectErrorShape(res, 400).message).toBe(TOO_DEEP);
    });

    it('a 30-deep body reaches validation as before', async () => {
      const payload = `{"phone":"+15550001234","x":${arrays(30)}}`;
      const body = expectErrorShape(await t.request({ method: 'POST', url: '/api/v1/auth/send-otp', payload, headers: json }), 400);
      expect(body.message).not.toBe(TOO_DEEP);
      expect(body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'x' })]));
    });

    it('brackets inside strings do not count', async () => {
      const payload = JSON.stringify({ phone: `+1555${'['.repeat(100)}` });
      const body = expectErrorShape(await t.request({ method: 'POST', url: '/api/v1/auth/send-otp', payload, headers: json }), 400);
      expect(body.message).not.toBe(TOO_DEEP);
      expect(body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'phone' })]));
    });

    it('a deeply nested WebSocket frame gets an error frame and the connection keeps working', async () => {
      const client = await LiveClient.connect(t, passenger.accessToken);
      client.send(`{"type":"ping","x":${arrays(2000)}}`);
      expect(await client.next()).toMatchObject({ type: 'error', data: { code: 'invalid_message', message: expect.stringContaining('nested too deeply') } });
      client.send({ type: 'ping', x: [[[1]]] });
      expect((await client.next()).type).toBe('pong');
      await client.close();
    });
  });

  describe('hostile query strings', () => {
    it('more than 100 parameters are a 400 in the error shape, before validation lists each one', async () => {
      for (const query of [Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join('&'), Array.from({ length: 10_000 }, () => 'limit=1').join('&')]) {
        const res = await t.request({ method: 'GET', url: `/api/v1/passenger/rides?${query}`, token: passenger.accessToken });
        expect(expectErrorShape(res, 400)).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Too many query parameters (at most 100)' });
        expectSecurityHeaders(res, false);
      }
      const hundred = Array.from({ length: 100 }, () => 'limit=1').join('&');
      const res = await t.request({ method: 'GET', url: `/api/v1/passenger/rides?${hundred}`, token: passenger.accessToken });
      expect(expectErrorShape(res, 400).message).not.toMatch(/Too many query parameters/);
    });

    it('bracket-nested keys are plain keys to the parser: a 4xx, never a 500', async () => {
      for (const query of [`a${'[b]'.repeat(2000)}=1`, '__proto__[x]=1&constructor[prototype][y]=2', 'limit[0][1]=1&cursor[a]=b']) {
        const res = await t.request({ method: 'GET', url: `/api/v1/passenger/rides?${query}`, token: passenger.accessToken });
        expectErrorShape(res, 400);
      }
    });
  });

  describe('security headers', () => {
    it('are on a 200, a 404, a 400, a framework error, health and the Swagger UI; HSTS only behind the proxy', async () => {
      for (const [app, hsts] of [
        [t, false],
        [behindProxy, true],
      ] as const) {
        const ok = await app.request({ method: 'GET', url: '/api/v1/auth/me', token: passenger.accessToken });
        expect(ok.statusCode).toBe(200);
        expectSecurityHeaders(ok, hsts);

        const notFound = await app.request({ method: 'GET', url: '/api/v1/no-such-thing' });
        expectErrorShape(notFound, 404);
        expectSecurityHeaders(notFound, hsts);

        const invalid = await app.request({ method: 'POST', url: '/api/v1/auth/send-otp', payload: {} });
        expectErrorShape(invalid, 400);
        expectSecurityHeaders(invalid, hsts);

        const badUrl = await app.request({ method: 'GET', url: '/api/v1/rides/%zz' });
        expectErrorShape(badUrl, 400);
        expectSecurityHeaders(badUrl, hsts);

        const health = await app.request({ method: 'GET', url: '/health/live' });
        expect(health.statusCode).toBe(200);
        expectSecurityHeaders(health, hsts);

        const docs = await app.request({ method: 'GET', url: '/docs' });
        expect(docs.statusCode).toBe(200);
        expect(docs.headers['content-type']).toMatch(/text\/html/);
        expect(docs.headers['content-security-policy']).toBeUndefined();
        expectSecurityHeaders(docs, hsts);
      }
    });

    it('leave the Swagger UI loadable: its page and the assets it references are served', async () => {
      const page = (await t.request({ method: 'GET', url: '/docs' })).body;
      const assets = [...page.matchAll(/(?:src|href)="\.?\/?([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) {
        const url = asset.startsWith('/') ? asset : `/docs/${asset.replace(/^docs\//, '')}`;
        const res = await t.request({ method: 'GET', url });
        expect([url, res.statusCode]).toEqual([url, 200]);
        expectSecurityHeaders(res, false);
      }
    });
  });

  describe('CORS', () => {
    const preflight = (app: TestApp, origin: string, url = '/api/v1/auth/profile') =>
      app.request({
        method: 'OPTIONS',
        url,
        headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
      });

    it('an allowed origin gets a 204 preflight with methods, headers and max-age', async () => {
      const res = await preflight(behindProxy, ADMIN);
      expect(res.statusCode).toBe(204);
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': ADMIN,
        'access-control-allow-methods': expect.stringContaining('PUT'),
        'access-control-max-age': '600',
        vary: expect.stringContaining('Origin'),
      });
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
      for (const h of ['authorization', 'content-type', 'idempotency-key', 'x-request-id']) expect(allowed).toContain(h);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expectSecurityHeaders(res, true);
      expect((await preflight(behindProxy, 'http://localhost:5173')).headers['access-control-allow-origin']).toBe('http://localhost:5173');
    });

    it('an allowed origin can read responses, errors included', async () => {
      const ok = await behindProxy.request({ method: 'GET', url: '/api/v1/auth/me', token: passenger.accessToken, headers: { origin: ADMIN } });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers).toMatchObject({ 'access-control-allow-origin': ADMIN, vary: expect.stringContaining('Origin') });
      expect(String(ok.headers['access-control-expose-headers'])).toContain('X-Request-Id');
      const err = await behindProxy.request({ method: 'POST', url: '/api/v1/auth/send-otp', payload: {}, headers: { origin: ADMIN } });
      expectErrorShape(err, 400);
      expect(err.headers['access-control-allow-origin']).toBe(ADMIN);
    });

    it('another origin, or a look-alike, gets a 403 preflight without any Access-Control-Allow-* header', async () => {
      for (const origin of ['https://evil.example.com', `${ADMIN}.evil.com`, 'http://admin.example.com', 'null']) {
        const res = await preflight(behindProxy, origin);
        expect(expectErrorShape(res, 403).message).toMatch(/origin/i);
        expect([origin, corsHeaders(res)]).toEqual([origin, []]);
        expectSecurityHeaders(res, true);
        const simple = await behindProxy.request({ method: 'GET', url: '/api/v1/auth/me', token: passenger.accessToken, headers: { origin } });
        expect(simple.statusCode).toBe(200);
        expect(corsHeaders(simple)).toEqual([]);
      }
    });

    it('is off by default: preflights get a 403 and responses no Access-Control-* header', async () => {
      const res = await preflight(t, ADMIN);
      expectErrorShape(res, 403);
      expect(corsHeaders(res)).toEqual([]);
      expectSecurityHeaders(res, false);
      const simple = await t.request({ method: 'GET', url: '/api/v1/auth/me', token: passenger.accessToken, headers: { origin: ADMIN } });
      expect(simple.statusCode).toBe(200);
      expect(corsHeaders(simple)).toEqual([]);
      expect(simple.headers.vary).toBeUndefined();
    });

    it('an OPTIONS request that is not a preflight is routed as before (404)', async () => {
      expectErrorShape(await t.request({ method: 'OPTIONS', url: '/api/v1/auth/profile' }), 404);
      expectErrorShape(await behindProxy.request({ method: 'OPTIONS', url: '/api/v1/auth/profile', headers: { origin: ADMIN } }), 404);
    });
  });
});
