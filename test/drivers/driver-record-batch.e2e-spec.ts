import { DriversRepository } from '../../src/modules/drivers/drivers.repository';
import { DriversService } from '../../src/modules/drivers/drivers.service';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Nearby reads each driver's record (status, category) through a per-instance cache. A fleet that
 * came online together misses it together (at start-up, and again when the entries expire), and one
 * statement per miss made those bursts a queue on the pool ahead of the ride writes: the misses of one
 * turn share one statement, and each caller still gets its own row (or DRIVER_NOT_FOUND).
 */
describe('driver record cache: cold misses share a statement', () => {
  let app: TestApp;
  let ids: number[];

  beforeAll(async () => {
    app = await startTestApp();
    const users: Array<{ id: number }> = await app.db.query(
      `INSERT INTO users (phone, first_name, last_name, role, is_registered, registered_at)
       SELECT '+1998' || lpad(g::text, 7, '0'), 'Cold', 'Miss', 'driver', true, now() FROM generate_series(1, 300) g
       RETURNING id`,
    );
    ids = users.map((u) => u.id);
    await app.db.query(
      `INSERT INTO drivers (user_id, status, vehicle_category_id)
       SELECT id, CASE WHEN id % 3 = 0 THEN 'suspended' ELSE 'approved' END, 1 FROM unnest($1::int[]) id`,
      [ids],
    );
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('300 drivers missing in one turn are one statement, each answered with its own record', async () => {
    const repository = app.get(DriversRepository);
    const many = jest.spyOn(repository, 'findByUserIds');
    const one = jest.spyOn(repository, 'findByUserId');
    const missing = Math.max(...ids) + 1000;
    try {
      const service = app.get(DriversService);
      const results = await Promise.allSettled([...ids, missing].map((id) => service.getDriverCached(id)));
      expect(many).toHaveBeenCalledTimes(1);
      expect(one).not.toHaveBeenCalled();
      ids.forEach((id, i) => {
        const r = results[i];
        expect(r.status).toBe('fulfilled');
        if (r.status !== 'fulfilled') return;
        expect(r.value.user_id).toBe(id);
        expect(r.value.status).toBe(id % 3 === 0 ? 'suspended' : 'approved');
      });
      const last = results[results.length - 1];
      expect(last.status).toBe('rejected');
      if (last.status === 'rejected') expect((last.reason as { code?: string }).code).toBe('DRIVER_NOT_FOUND');

      // Now cached: no statement at all.
      many.mockClear();
      await Promise.all(ids.map((id) => service.getDriverCached(id)));
      expect(many).not.toHaveBeenCalled();
      expect(one).not.toHaveBeenCalled();
    } finally {
      many.mockRestore();
      one.mockRestore();
    }
  });
});
