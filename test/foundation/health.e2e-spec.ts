import { startTestApp, TestApp } from '../support/test-app';
import { withAdminClient } from '../support/test-database';

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

  it('the OpenAPI document lists both probes', async () => {
    const res = await t.request({ method: 'GET', url: '/docs-json' });
    expect(Object.keys(res.json().paths)).toEqual(expect.arrayContaining(['/health/live', '/health/ready']));
  });

  // Last: it destroys this file's database.
  it('GET /health/ready is 503 when the database is gone, while live stays 200', async () => {
    const name = new URL(t.databaseUrl).pathname.slice(1);
    await withAdminClient((c) => c.query(`DROP DATABASE ${name} WITH (FORCE)`));

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
  });
});
