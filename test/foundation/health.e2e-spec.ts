import { startTestApp, TestApp } from '../support/test-app';
import { describeWithRedisServer, spawnRedis, TestRedis } from '../support/redis';
import { withAdminClient } from '../support/test-database';
import { waitFor } from '../support/wait';

describe('health endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('GET /health/live is 200 without a token and outside the /api/v1 prefix', async () => {
    const res = await t.request({ method: 'GET', url: '/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect((await t.request({ method: 'GET', url: '/api/v1/health/live' })).statusCode).toBe(404);
  });

  it('GET /health/ready is 200 with the database up', async () => {
    const res = await t.request({ method: 'GET', url: '/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', checks: { database: 'up' } });
  });

  it('GET /health answers as /health/ready, outside the /api/v1 prefix', async () => {
    const res = await t.request({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', checks: { database: 'up' } });
    expect((await t.request({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(404);
  });

  it('the OpenAPI document lists the probes', async () => {
    const res = await t.request({ method: 'GET', url: '/docs-json' });
    expect(Object.keys(res.json().paths)).toEqual(expect.arrayContaining(['/health', '/health/live', '/health/ready']));
  });

  // Last: it cuts this file's database off. Not a DROP: that forces a checkpoint, which on a busy
  // server with fsync on took over 30 s; refusing connections and ending the open ones is immediate.
  it('GET /health/ready is 503 when the database is gone, while live stays 200', async () => {
    const name = new URL(t.databaseUrl).pathname.slice(1);
    await withAdminClient(async (c) => {
      await c.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
      await c.query(`SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = $1`, [name]);
    });

    const started = Date.now();
    const res = await t.request({ method: 'GET', url: '/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Not ready: database is down',
      status: 'unavailable',
      checks: { database: 'down' },
    });
    // The probe has its own deadline: a load balancer must get an answer quickly.
    expect(Date.now() - started).toBeLessThan(3000);

    expect((await t.request({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/health' })).statusCode).toBe(503);
  });
});

// Readiness must notice Redis going away, so this needs a Redis it can stop: a throwaway redis-server
// (installed here and in CI); without one the block says why it did not run.
const NAME = 'health endpoints with REDIS_URL';
describeWithRedisServer(NAME, () => {
  let t: TestApp;
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await spawnRedis();
    t = await startTestApp({ env: { REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });

  it('ready checks Redis too, and is 503 naming it when Redis stops', async () => {
    const up = await t.request({ method: 'GET', url: '/health/ready' });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });

    await redis.stop();
    // stop() signals redis-server without waiting for it to exit: poll until readiness notices.
    const down = await waitFor(
      'readiness to notice Redis stopped',
      async () => {
        const started = Date.now();
        const res = await t.request({ method: 'GET', url: '/health/ready' });
        expect(Date.now() - started).toBeLessThan(3000);
        return res.statusCode !== 200 && res;
      },
      5000,
    );
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ message: 'Not ready: redis is down', checks: { database: 'up', redis: 'down' } });
    expect((await t.request({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
  });
});
