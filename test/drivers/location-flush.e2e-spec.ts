import { DriverLocationsService, FLUSH_CHUNK_SIZE } from '../../src/modules/drivers/driver-locations.service';
import { DriversRepository } from '../../src/modules/drivers/drivers.repository';
import { waitFor } from '../support/wait';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The durable copy of positions at fleet scale: the flush writes any number of pending drivers in
 * bounded chunks (one statement for all of them would pass PostgreSQL's 65,535 parameters from
 * 9,363 drivers), and two instances flushing overlapping drivers at once lose nothing to deadlocks.
 */
describe('driver location flush at fleet scale', () => {
  let first: TestApp;
  let second: TestApp;
  let ids: number[];

  beforeAll(async () => {
    const env = { LOCATION_FLUSH_MS: '60000' };
    first = await startTestApp({ env });
    second = await startTestApp({ databaseUrl: first.databaseUrl, env });
    const users: Array<{ id: number }> = await first.db.query(
      `INSERT INTO users (phone, email, first_name, last_name, role, is_verified, is_phone_verified, is_registered, registered_at)
       SELECT '+1999' || lpad(g::text, 7, '0'), 'fleet' || g || '@example.test', 'Dana', 'Fleet', 'driver', true, true, true, now()
         FROM generate_series(1, 12000) g
       RETURNING id`,
    );
    ids = users.map((u) => u.id).sort((a, b) => a - b);
    await first.db.query(`INSERT INTO drivers (user_id, status, vehicle_category_id) SELECT id, 'approved', 1 FROM unnest($1::int[]) id`, [ids]);
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const stored = async (): Promise<Map<number, number | null>> => {
    const rows: Array<{ user_id: number; last_latitude: number | null }> = await first.db.query(
      `SELECT user_id, last_latitude FROM drivers WHERE user_id = ANY($1::int[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.user_id, r.last_latitude]));
  };

  it("writes 12,000 drivers' heartbeats to the table in one flush", async () => {
    const locations = first.get(DriverLocationsService);
    ids.forEach((id, i) => void locations.record(id, { latitude: 10 + i / 100_000, longitude: 20 }));
    await locations.flush();
    const rows = await stored();
    expect(rows.size).toBe(12_000);
    const wrong = ids.filter((id, i) => rows.get(id) !== 10 + i / 100_000);
    expect(wrong).toEqual([]);
  }, 120_000);

  it('two instances flushing overlapping drivers at once both write everything (no deadlock)', async () => {
    // The first instance hears drivers 0..7999, the second 4000..11999 a moment later (newer pings win).
    const a = first.get(DriverLocationsService);
    const b = second.get(DriverLocationsService);
    ids
      .slice(0, 8000)
      .reverse()
      .forEach((id) => void a.record(id, { latitude: 30, longitude: 20 }));
    const stamped = Date.now();
    await waitFor("the clock past the first instance's pings", () => Date.now() > stamped);
    ids.slice(4000).forEach((id) => void b.record(id, { latitude: 40, longitude: 20 }));
    await Promise.all([a.flush(), b.flush(), a.flush(), b.flush()]);
    const rows = await stored();
    const expected = (i: number): number => (i < 4000 ? 30 : 40);
    expect(ids.filter((id, i) => rows.get(id) !== expected(i))).toEqual([]);
  }, 120_000);

  it('a failing chunk does not hold up the others; it is retried, and given up after three failures', async () => {
    const locations = first.get(DriverLocationsService);
    const repository = first.get(DriversRepository);
    const some = ids.slice(0, FLUSH_CHUNK_SIZE * 2 + 500);
    some.forEach((id) => void locations.record(id, { latitude: 50, longitude: 20 }));
    const spy = jest.spyOn(repository, 'writeLocations').mockRejectedValueOnce(new Error('chunk failed'));
    try {
      await locations.flush();
      const afterFailure = await stored();
      const failed = some.filter((id) => afterFailure.get(id) !== 50);
      expect(failed).toHaveLength(FLUSH_CHUNK_SIZE); // one chunk; the other two were written
      await locations.flush();
      const afterRetry = await stored();
      expect(some.filter((id) => afterRetry.get(id) !== 50)).toEqual([]);

      // A chunk that keeps failing is dropped after the third attempt instead of being retried forever.
      void locations.record(ids[0], { latitude: 51, longitude: 20 });
      spy.mockRejectedValue(new Error('chunk failed'));
      for (let attempt = 0; attempt < 3; attempt += 1) await locations.flush();
      spy.mockRestore();
      await locations.flush();
      expect((await stored()).get(ids[0])).toBe(50);
    } finally {
      spy.mockRestore();
    }
  }, 120_000);
});
