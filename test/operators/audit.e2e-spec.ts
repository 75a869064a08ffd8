import { AuditService } from '../../src/modules/audit/audit.service';
import { createOperator, createUser, TestOperator } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const AUDIT = '/api/v1/admin/audit';

describe('the audit trail (CONTRACT §13)', () => {
  let t: TestApp;
  let admin: TestOperator;
  let finance: TestOperator;

  const list = (query: string, token = finance.accessToken) => t.request({ method: 'GET', url: `${AUDIT}${query}`, token });

  beforeAll(async () => {
    t = await startTestApp();
    [admin, finance] = await Promise.all([createOperator(t, 'admin'), createOperator(t, 'finance')]);
  });
  afterAll(() => t.close());

  it('the database refuses to UPDATE, DELETE or TRUNCATE an entry, whoever asks', async () => {
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM audit_log`);
    expect(count).toBeGreaterThan(0);
    await expect(t.db.query(`UPDATE audit_log SET reason = 'rewritten'`)).rejects.toThrow('audit_log is append-only: UPDATE refused');
    await expect(t.db.query(`DELETE FROM audit_log`)).rejects.toThrow('audit_log is append-only: DELETE refused');
    await expect(t.db.query(`TRUNCATE audit_log`)).rejects.toThrow('audit_log is append-only: TRUNCATE refused');
    expect((await t.db.query(`SELECT count(*)::int AS count FROM audit_log`))[0].count).toBe(count);
    expect(await t.db.query(`SELECT 1 FROM audit_log WHERE reason = 'rewritten'`)).toEqual([]);
  });

  it('an entry commits or rolls back with the change it records', async () => {
    const audit = t.get(AuditService);
    const entry = { actorId: admin.id, reason: 'Checking the transaction', action: 'test.rollback', targetType: 'user', targetId: 424242 };
    await expect(
      t.db.transaction(async (manager) => {
        await audit.record(entry, manager);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await t.db.query(`SELECT 1 FROM audit_log WHERE target_id = '424242'`)).toEqual([]);
    await t.db.transaction((manager) => audit.record(entry, manager));
    expect((await list('?target_id=424242')).json().items).toHaveLength(1);
  });

  it('lists newest first, by target and by actor, paged as {items, page, limit, total}', async () => {
    const user = await createUser(t);
    const audit = t.get(AuditService);
    for (const [actor, action] of [
      [admin.id, 'test.first'],
      [finance.id, 'test.second'],
      [admin.id, 'test.third'],
    ] as const) {
      await t.db.transaction((m) =>
        audit.record({ actorId: actor, reason: 'Listing check', action, targetType: 'user', targetId: user.id, details: { n: action } }, m),
      );
    }
    const all = (await list(`?target_id=${user.id}`)).json();
    expect(all).toMatchObject({ page: 1, limit: 20, total: 3 });
    expect(all.items.map((e: { action: string }) => e.action)).toEqual(['test.third', 'test.second', 'test.first']);
    expect(all.items[0]).toEqual({
      id: expect.any(Number),
      actor_id: admin.id,
      action: 'test.third',
      target_type: 'user',
      target_id: user.id,
      reason: 'Listing check',
      details: { n: 'test.third' },
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    const byBoth = (await list(`?target_id=${user.id}&actor_id=${admin.id}`)).json();
    expect(byBoth.items.map((e: { action: string }) => e.action)).toEqual(['test.third', 'test.first']);
    const page2 = (await list(`?target_id=${user.id}&page=2&limit=2`)).json();
    expect(page2).toMatchObject({ page: 2, limit: 2, total: 3 });
    expect(page2.items.map((e: { action: string }) => e.action)).toEqual(['test.first']);
    const byActor = (await list(`?actor_id=${finance.id}`)).json();
    expect(byActor.items.every((e: { actor_id: number }) => e.actor_id === finance.id)).toBe(true);
    expect(byActor.total).toBeGreaterThanOrEqual(1);
  });

  it('bad filters are 400s', async () => {
    for (const query of ['?actor_id=abc', '?actor_id=0', '?limit=101', '?page=0', `?target_id=${'x'.repeat(65)}`, '?target=1']) {
      expect([query, (await list(query)).statusCode]).toEqual([query, 400]);
    }
  });
});
