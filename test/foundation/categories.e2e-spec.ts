import { startTestApp, TestApp } from '../support/test-app';

describe('GET /api/v1/rides/categories', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('returns the seeded categories publicly, in snake_case with every spec field', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/rides/categories' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((c: { code: string }) => c.code)).toEqual(['economy', 'comfort', 'business', 'van', 'delivery']);
    const economy = body[0];
    for (const field of ['max_passengers', 'max_luggage', 'luggage_capacity', 'base_fare', 'per_km_rate', 'per_minute_rate', 'minimum_fare']) {
      expect(typeof economy[field]).toBe('number');
    }
    expect(economy).toMatchObject({ id: expect.any(Number), name: 'Economy', base_fare: 2.5, minimum_fare: 6, currency: 'USD' });
  });

  it('seeding twice changes nothing', async () => {
    const { runSeeds } = await import('../../src/database/seeds/run-seeds');
    await runSeeds(t.db);
    const [{ count }] = await t.db.query('SELECT count(*) FROM vehicle_categories');
    expect(count).toBe(5);
  });
});
