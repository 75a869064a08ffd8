import { DriversService } from '../../src/modules/drivers/drivers.service';
import { bookRide, PICKUP } from '../rides/ride-helpers';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { LiveClient } from '../realtime/live-client';

const TOKEN = 'metrics-token-for-the-test-0123456789';
const NEAR = { latitude: PICKUP.latitude + 0.001, longitude: PICKUP.longitude };

/** The value of one sample of the exposition text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const body = /\{(.*)\}/.exec(line)?.[1] ?? '';
    if (Object.entries(labels).every(([key, value]) => body.includes(`${key}="${value}"`))) return Number(line.split(' ').pop());
  }
  return undefined;
}

describe('operator metrics at /metrics (Prometheus)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: TOKEN, NODE_ENV: 'development' } });
  });
  afterAll(() => t.close());

  const scrape = async (): Promise<string> => {
    const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  it('requires the bearer token: none or a wrong one is 401 in the error shape', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const res = await t.request({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>)',
      });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
  });

  it('times requests per route pattern, never per raw URL', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    for (let i = 0; i < 3; i += 1) {
      expect((await t.request({ method: 'GET', url: `/api/v1/rides/${ride.id}`, token: passenger.accessToken })).statusCode).toBe(200);
    }
    await t.request({ method: 'GET', url: '/no/such/path' });
    const text = await scrape();
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/rides/:ride_id', status: '200' })).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/rides/book', status: '201' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(ride.id);
  });

  it('counts sockets, events published and delivered, the matcher, codes sent, and the pool', async () => {
    const driver = await createUser(t, { role: 'driver' });
    await t.get(DriversService).setOnline(driver.id, true);
    expect((await t.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: NEAR })).statusCode).toBe(200);
    const socket = await LiveClient.connect(t, driver.accessToken);
    try {
      expect(sample(await scrape(), 'ws_open_sockets')).toBe(1);
      await bookRide(t, await createUser(t));
      await socket.next('ride_requested');
      expect((await t.request({ method: 'POST', url: '/api/v1/auth/send-otp', payload: { phone: '+15550001111' } })).statusCode).toBe(200);
      const text = await scrape();
      expect(sample(text, 'domain_events_total', { event: 'ride.requested', origin: 'local' })).toBeGreaterThanOrEqual(2);
      expect(sample(text, 'ws_messages_delivered_total', { type: 'ride_requested' })).toBe(1);
      expect(sample(text, 'matcher_first_send_seconds_count')).toBe(1);
      expect(sample(text, 'fanout_last_write_seconds_count')).toBe(1);
      expect(sample(text, 'otp_sent_total', { channel: 'log' })).toBe(1);
      expect(sample(text, 'db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'db_pool_max')).toBe(10);
      expect(text).toContain('db_pool_wait_seconds_count');
      expect(text).toContain('process_cpu_seconds_total');
    } finally {
      await socket.close();
    }
    // The server notices the close a moment later.
    while (sample(await scrape(), 'ws_open_sockets') !== 0) await new Promise((resolve) => setImmediate(resolve));
  });

  it('times the queries that had to wait for a pool connection', async () => {
    const before = sample(await scrape(), 'db_pool_wait_seconds_count') ?? 0;
    const slowBefore = before - (sample(await scrape(), 'db_pool_wait_seconds_bucket', { le: '0.025' }) ?? 0);
    // Twenty statements of 50 ms on a pool of ten: ten of them wait for one of the first ten.
    await Promise.all(Array.from({ length: 20 }, () => t.db.query('SELECT pg_sleep(0.05)')));
    const text = await scrape();
    const count = sample(text, 'db_pool_wait_seconds_count')!;
    expect(count - before).toBeGreaterThanOrEqual(20);
    const slow = count - sample(text, 'db_pool_wait_seconds_bucket', { le: '0.025' })!;
    expect(slow - slowBefore).toBeGreaterThanOrEqual(10);
  });
});

describe('without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('/metrics does not exist (404), with or without a token', async () => {
    for (const headers of [{}, { authorization: 'Bearer anything' }]) {
      const res = await t.request({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });
});
