import { executeCommand } from '../../src/cli/commands';
import { LiveClient } from '../realtime/live-client';
import { createOperator, createUser, TestOperator } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const USERS = '/api/v1/admin/users';

describe('admin users (CONTRACT §13)', () => {
  let t: TestApp;
  let support: TestOperator;
  let finance: TestOperator;

  const get = (url: string, token = support.accessToken) => t.request({ method: 'GET', url, token });
  const post = (url: string, payload: unknown, token = support.accessToken) => t.request({ method: 'POST', url, token, payload: payload as object });
  const auditOf = async (targetId: number) => (await get(`/api/v1/admin/audit?target_id=${targetId}`)).json().items;

  beforeAll(async () => {
    t = await startTestApp();
    [support, finance] = await Promise.all([createOperator(t, 'support'), createOperator(t, 'finance')]);
  });
  afterAll(() => t.close());

  it('GET /admin/users: query matches phone, e-mail or name; role filters; paged, newest first', async () => {
    const marker = `Zq${Date.now().toString(36)}`;
    const a = await createUser(t, { firstName: marker });
    const b = await createUser(t, { role: 'driver', firstName: marker });
    const byName = (await get(`${USERS}?query=${marker.toLowerCase()}`)).json();
    expect(byName).toMatchObject({ page: 1, limit: 20, total: 2 });
    expect(byName.items.map((u: { id: number }) => u.id)).toEqual([b.id, a.id]);
    expect(byName.items[0]).toMatchObject({ id: b.id, role: 'driver', first_name: marker, is_blocked: false });
    expect(byName.items[0]).not.toHaveProperty('refresh_token_hash');
    expect((await get(`${USERS}?query=${encodeURIComponent(a.phone.slice(2))}`)).json().items.map((u: { id: number }) => u.id)).toContain(a.id);
    expect((await get(`${USERS}?query=${encodeURIComponent(b.email.toUpperCase())}`)).json().items.map((u: { id: number }) => u.id)).toEqual([b.id]);
    expect((await get(`${USERS}?query=${encodeURIComponent(`${marker} Test`)}`)).json().total).toBe(2);
    const drivers = (await get(`${USERS}?query=${marker}&role=driver`)).json();
    expect(drivers.items.map((u: { id: number }) => u.id)).toEqual([b.id]);
    const second = (await get(`${USERS}?query=${marker}&page=2&limit=1`)).json();
    expect(second).toMatchObject({ page: 2, limit: 1, total: 2 });
    expect(second.items.map((u: { id: number }) => u.id)).toEqual([a.id]);
    // LIKE wildcards are literal: "%" matches nobody's name.
    expect((await get(`${USERS}?query=${encodeURIComponent('%')}`)).json().total).toBe(0);
  });

  it('GET /admin/users: bad filters are 400', async () => {
    for (const q of ['role=admin', 'page=0', 'limit=101', 'query=', 'colour=red']) {
      const res = await get(`${USERS}?${q}`);
      expect([q, res.statusCode]).toEqual([q, 400]);
    }
  });

  it('GET /admin/users/{id}: the user, the wallet and the driver record (null for a passenger); 404 for none', async () => {
    const driver = await createUser(t, { role: 'driver', walletBalanceMinor: 1250 });
    const res = await get(`${USERS}/${driver.id}`, finance.accessToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      user: { id: driver.id, role: 'driver', phone: driver.phone },
      wallet: { balance: 12.5, currency: t.config.currency },
      driver: { user_id: driver.id, status: 'approved' },
    });
    const passenger = await createUser(t);
    expect((await get(`${USERS}/${passenger.id}`)).json()).toMatchObject({ user: { id: passenger.id }, wallet: { balance: 0 }, driver: null });
    const missing = await get(`${USERS}/987654321`);
    expect([missing.statusCode, missing.json().message]).toEqual([404, 'User not found']);
  });

  it('block: sessions end, live sockets close 4403, tokens refused at once; unblock restores; both audited with the reason', async () => {
    const user = await createUser(t);
    const socket = await LiveClient.connect(t, user.accessToken);
    const blocked = await post(`${USERS}/${user.id}/block`, { reason: '  Fraudulent card use  ' });
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json()).toMatchObject({ id: user.id, is_blocked: true });
    expect((await socket.closed).code).toBe(4403);
    const me = await t.request({ method: 'GET', url: '/api/v1/auth/me', token: user.accessToken });
    expect([me.statusCode, me.json().message]).toEqual([403, 'Account is blocked']);
    const [row] = await t.db.query('SELECT is_blocked, refresh_token_hash FROM users WHERE id = $1', [user.id]);
    expect(row).toEqual({ is_blocked: true, refresh_token_hash: null });

    const unblocked = await post(`${USERS}/${user.id}/unblock`, { reason: 'Chargeback resolved' });
    expect([unblocked.statusCode, unblocked.json().is_blocked]).toEqual([200, false]);
    expect((await t.request({ method: 'GET', url: '/api/v1/auth/me', token: user.accessToken })).statusCode).toBe(200);

    expect(await auditOf(user.id)).toEqual([
      expect.objectContaining({
        actor_id: support.id,
        action: 'users.unblock',
        target_type: 'user',
        target_id: user.id,
        reason: 'Chargeback resolved',
        details: { was_blocked: true },
      }),
      expect.objectContaining({
        actor_id: support.id,
        action: 'users.block',
        target_type: 'user',
        target_id: user.id,
        reason: 'Fraudulent card use',
        details: { was_blocked: false },
      }),
    ]);
  });

  it('the CLI blocks through the same rule: audited with actor_id null and its --reason', async () => {
    const user = await createUser(t);
    expect(await executeCommand(t.app, ['user:block', String(user.id), '--reason', 'Chargeback on three rides'])).toBe(`User ${user.id} is now blocked`);
    expect(await executeCommand(t.app, ['user:unblock', String(user.id)])).toBe(`User ${user.id} is now unblocked`);
    expect((await auditOf(user.id)).map((e: { actor_id: null; action: string; reason: string }) => [e.actor_id, e.action, e.reason])).toEqual([
      [null, 'users.unblock', 'Unblocked with the operator CLI'],
      [null, 'users.block', 'Chargeback on three rides'],
    ]);
    await expect(executeCommand(t.app, ['user:block', String(user.id), '--reason', 'no'])).rejects.toThrow('--reason must be 3 to 500 characters');
  });

  it('a reason is required (3..500 characters): 400 and nothing changes, nothing is recorded', async () => {
    const user = await createUser(t);
    const cases: Array<[unknown, string]> = [
      [{}, 'reason must be a string'],
      [{ reason: ' ab ' }, 'reason must be 3 to 500 characters'],
      [{ reason: 'x'.repeat(501) }, 'reason must be 3 to 500 characters'],
    ];
    for (const [payload, message] of cases) {
      const res = await post(`${USERS}/${user.id}/block`, payload);
      expect([res.statusCode, res.json().details]).toEqual([400, [{ field: 'reason', message }]]);
    }
    const extra = await post(`${USERS}/${user.id}/block`, { reason: 'Spam', note: 'x' });
    expect(extra.statusCode).toBe(400);
    expect((await t.db.query('SELECT is_blocked FROM users WHERE id = $1', [user.id]))[0].is_blocked).toBe(false);
    expect(await auditOf(user.id)).toEqual([]);
  });

  it('an operator account cannot be blocked here (409), an unknown user is 404, finance may not block (403)', async () => {
    const admin = await createOperator(t, 'admin');
    const res = await post(`${USERS}/${admin.id}/block`, { reason: 'Taking over' });
    expect(res.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Operator accounts are managed under /api/v1/admin/operators' });
    expect((await post(`${USERS}/987654321/block`, { reason: 'Spam' })).json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'User not found' });
    const user = await createUser(t);
    expect((await post(`${USERS}/${user.id}/block`, { reason: 'Spam' }, finance.accessToken)).json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'Not allowed for your role',
    });
  });
});
