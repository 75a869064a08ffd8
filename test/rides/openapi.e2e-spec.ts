import { startTestApp, TestApp } from '../support/test-app';

describe('OpenAPI document for the marketplace', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('documents every ride, bid and driver endpoint', async () => {
    const res = await t.request({ method: 'GET', url: '/docs-json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, unknown>>;
    const expected: Array<[string, string]> = [
      ['/api/v1/rides/estimate', 'post'],
      ['/api/v1/rides/book', 'post'],
      ['/api/v1/passenger/rides/active', 'get'],
      ['/api/v1/passenger/rides', 'get'],
      ['/api/v1/rides/{ride_id}', 'get'],
      ['/api/v1/rides/{ride_id}/bids', 'get'],
      ['/api/v1/rides/{ride_id}/bids/{bid_id}/accept', 'post'],
      ['/api/v1/rides/{ride_id}/cancel', 'post'],
      ['/api/v1/rides/{ride_id}/status', 'put'],
      ['/api/v1/driver/profile', 'get'],
      ['/api/v1/driver/profile', 'put'],
      ['/api/v1/driver/status', 'put'],
      ['/api/v1/driver/location', 'put'],
      ['/api/v1/driver/rides/nearby', 'get'],
      ['/api/v1/driver/rides/{ride_id}/bid', 'post'],
      ['/api/v1/driver/rides/active', 'get'],
      ['/api/v1/driver/earnings', 'get'],
    ];
    for (const [path, method] of expected) expect([path, method, Boolean(paths[path]?.[method])]).toEqual([path, method, true]);
  });
});
