import type Redis from 'ioredis';
import { PostgresRateLimiter } from '../../src/common/rate-limit/postgres-rate-limiter';
import { RateLimiter } from '../../src/common/rate-limit/rate-limiter';
import { RedisRateLimiter } from '../../src/common/rate-limit/redis-rate-limiter';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { DEV_CODE, freshPhone, post, startAuthApp } from './auth-helpers';
import { describeWithRedis, startRedis, TestRedis } from '../support/redis';

function fromIp(t: TestApp, url: string, payload: object, ip: string) {
  return t.request({ method: 'POST', url: `/api/v1/auth/${url}`, payload, remoteAddress: ip });
}

describe('OTP limits per identity', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startAuthApp({ OTP_RESEND_COOLDOWN_SECONDS: '30', OTP_MAX_PER_HOUR: '0' });
  });
  afterAll(() => t.close());

  it('a resend inside the cooldown: 429 with Retry-After; other numbers are unaffected', async () => {
    const phone = freshPhone();
    expect((await post(t, 'send-otp', { phone })).statusCode).toBe(200);
    const res = await post(t, 'send-otp', { phone: phone.slice(1) });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(29);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect((await post(t, 'send-otp', { phone: freshPhone() })).statusCode).toBe(200);
    // The first code still works.
    expect((await post(t, 'verify-otp', { phone, otp: DEV_CODE })).statusCode).toBe(200);
  });

  it('the cooldown holds across service instances (counters in the shared database)', async () => {
    const second = await startTestApp({
      databaseUrl: t.databaseUrl,
      env: { NODE_ENV: 'development', OTP_DEV_FIXED_CODE: DEV_CODE, OTP_RESEND_COOLDOWN_SECONDS: '30' },
    });
    try {
      const phone = freshPhone();
      expect((await post(t, 'send-otp', { phone })).statusCode).toBe(200);
      expect((await post(second, 'send-otp', { phone })).statusCode).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe('OTP hourly cap per identity', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startAuthApp({ OTP_RESEND_COOLDOWN_SECONDS: '0', OTP_MAX_PER_HOUR: '3' });
  });
  afterAll(() => t.close());

  it('the fourth code within the hour: 429; neither a new code nor a successful verification resets the cap', async () => {
    const phone = freshPhone();
    expect((await post(t, 'send-otp', { phone })).statusCode).toBe(200);
    expect((await post(t, 'verify-otp', { phone, otp: DEV_CODE })).statusCode).toBe(200);
    expect((await post(t, 'send-otp', { phone })).statusCode).toBe(200);
    expect((await post(t, 'send-otp', { phone })).statusCode).toBe(200);
    const capped = await post(t, 'send-otp', { phone });
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await post(t, 'send-otp', { phone: freshPhone() })).statusCode).toBe(200);
  });
});

describe('per-IP limit on the auth endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startAuthApp({ AUTH_RATE_LIMIT_PER_IP_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it('send-otp: the fourth request of a minute from one address gets 429 with Retry-After; another address does not', async () => {
    for (let i = 0; i < 3; i += 1) expect((await fromIp(t, 'send-otp', { phone: freshPhone() }, '203.0.113.1')).statusCode).toBe(200);
    const limited = await fromIp(t, 'send-otp', { phone: freshPhone() }, '203.0.113.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await fromIp(t, 'send-otp', { phone: freshPhone() }, '203.0.113.2')).statusCode).toBe(200);
  });

  it('verify-otp and login are limited too (failed attempts count)', async () => {
    const bodies = { 'verify-otp': () => ({ phone: freshPhone(), otp: '000000' }), login: () => ({ phone: freshPhone() }) };
    for (const [url, body] of Object.entries(bodies)) {
      const ip = `203.0.113.${url.length}`;
      for (let i = 0; i < 3; i += 1) expect((await fromIp(t, url, body(), ip)).statusCode).not.toBe(429);
      expect((await fromIp(t, url, body(), ip)).statusCode).toBe(429);
    }
  });

  it('register is limited', async () => {
    const user = await createUser(t, { registered: false });
    const ip = '203.0.113.20';
    for (let i = 0; i < 3; i += 1) {
      await t.request({ method: 'POST', url: '/api/v1/auth/register', payload: { role: 'admin' }, token: user.accessToken, remoteAddress: ip });
    }
    const res = await t.request({ method: 'POST', url: '/api/v1/auth/register', payload: { role: 'passenger' }, token: user.accessToken, remoteAddress: ip });
    expect(res.statusCode).toBe(429);
  });

  it('refresh-token is not limited (a hot path that needs a current refresh token anyway)', async () => {
    const user = await createUser(t);
    let token = user.refreshToken;
    for (let i = 0; i < 6; i += 1) {
      const res = await fromIp(t, 'refresh-token', { refresh_token: token }, '203.0.113.30');
      expect(res.statusCode).toBe(200);
      token = res.json().refresh_token;
    }
  });
});

/** The contract both implementations must meet: a fixed window that starts at the first hit. */
function limiterContract(name: string, make: () => RateLimiter) {
  it(`${name}: counts hits atomically within a fixed window and starts over after it`, async () => {
    const limiter = make();
    const key = `test:${name}:${Date.now()}:${Math.random()}`;
    const results = await Promise.all(Array.from({ length: 10 }, () => limiter.hit(key, 4, 1)));
    expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(results.filter((r) => r.allowed)).toHaveLength(4);
    expect(results.every((r) => r.retryAfterSeconds === 1)).toBe(true);
    // The window is what is under test, and it is a time: the one wait in the suite that is not for an event.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const next = await limiter.hit(key, 4, 1);
    expect(next).toMatchObject({ allowed: true, hits: 1 });
  });
}

describe('RateLimiter on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('the app uses PostgreSQL without REDIS_URL', () => {
    expect(t.get(RateLimiter)).toBeInstanceOf(PostgresRateLimiter);
  });

  limiterContract('postgres', () => new PostgresRateLimiter(t.db));
});

describeWithRedis('RateLimiter on Redis', () => {
  let server: TestRedis;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedis();
    redis = server.client;
  });
  afterAll(() => server.stop());

  it('with REDIS_URL the app counts in Redis, and the limits still hold', async () => {
    const withRedis = await startAuthApp({ REDIS_URL: server.url, OTP_RESEND_COOLDOWN_SECONDS: '30' });
    try {
      expect(withRedis.get(RateLimiter)).toBeInstanceOf(RedisRateLimiter);
      const phone = freshPhone();
      expect((await post(withRedis, 'send-otp', { phone })).statusCode).toBe(200);
      expect((await post(withRedis, 'send-otp', { phone })).statusCode).toBe(429);
      expect((await redis.keys(`${withRedis.config.redisKeyPrefix}:ratelimit:otp-send:cooldown:*`)).length).toBeGreaterThan(0);
    } finally {
      await withRedis.close();
    }
  });

  limiterContract('redis', () => new RedisRateLimiter(redis, `rh-test:limiter:${process.pid}:`));
});
