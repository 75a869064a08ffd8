import { executeCommand } from '../../src/cli/commands';
import { createOperator, createUser, TestOperator } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

describe('POST /admin/wallets/{user_id}/adjust (CONTRACT §13)', () => {
  let t: TestApp;
  let finance: TestOperator;

  const adjust = (userId: number, payload: object, token = finance.accessToken) =>
    t.request({ method: 'POST', url: `/api/v1/admin/wallets/${userId}/adjust`, token, payload });
  const balanceOf = async (userId: number) => Number((await t.db.query('SELECT balance_minor FROM wallets WHERE user_id = $1', [userId]))[0].balance_minor);
  const platformBalance = async () => Number((await t.db.query(`SELECT COALESCE(sum(balance_minor), 0) AS b FROM wallets WHERE kind = 'platform'`))[0].b);

  beforeAll(async () => {
    t = await startTestApp();
    finance = await createOperator(t, 'finance');
  });
  afterAll(() => t.close());

  it('a credit and a debit move money against the platform account, balanced, each audited', async () => {
    const user = await createUser(t, { walletBalanceMinor: 1000 });
    const platformBefore = await platformBalance();
    const credit = await adjust(user.id, { amount: 12.5, reason: 'Goodwill after a failed pickup' });
    expect(credit.statusCode).toBe(200);
    expect(credit.json()).toEqual({ user_id: user.id, amount: 12.5, balance: 22.5, currency: t.config.currency, transfer_id: expect.any(String) });
    const debit = await adjust(user.id, { amount: -2.25, reason: '  Double credit reversed  ' });
    expect(debit.json()).toMatchObject({ amount: -2.25, balance: 20.25 });
    expect(await balanceOf(user.id)).toBe(2025);
    expect(await platformBalance()).toBe(platformBefore - 1025);
    const entries = await t.db.query(
      `SELECT e.amount_minor::int AS amount, e.kind, e.reason, w.kind AS wallet FROM wallet_ledger_entries e JOIN wallets w ON w.id = e.wallet_id WHERE e.transfer_id = $1 ORDER BY e.amount_minor`,
      [debit.json().transfer_id],
    );
    expect(entries).toEqual([
      { amount: -225, kind: 'adjustment', reason: 'Double credit reversed', wallet: 'user' },
      { amount: 225, kind: 'adjustment', reason: 'Double credit reversed', wallet: 'platform' },
    ]);
    expect(await executeCommand(t.app, ['ledger:check'])).toMatch(/^Ledger balanced/);
    const audit = (await t.request({ method: 'GET', url: `/api/v1/admin/audit?target_id=${user.id}`, token: finance.accessToken })).json().items;
    expect(audit).toEqual([
      expect.objectContaining({
        actor_id: finance.id,
        action: 'wallets.adjust',
        target_type: 'wallet',
        target_id: user.id,
        reason: 'Double credit reversed',
        details: { amount_minor: -225, balance_before_minor: 2250, balance_after_minor: 2025, transfer_id: debit.json().transfer_id },
      }),
      expect.objectContaining({ action: 'wallets.adjust', details: expect.objectContaining({ amount_minor: 1250 }) }),
    ]);
  });

  it('below zero is 409 and changes nothing; the whole balance may go', async () => {
    const user = await createUser(t, { walletBalanceMinor: 500 });
    expect((await adjust(user.id, { amount: -5.01, reason: 'Chargeback' })).json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'Adjustment would take the wallet below zero',
    });
    expect(await balanceOf(user.id)).toBe(500);
    expect((await t.request({ method: 'GET', url: `/api/v1/admin/audit?target_id=${user.id}`, token: finance.accessToken })).json().items).toEqual([]);
    expect((await adjust(user.id, { amount: -5, reason: 'Chargeback' })).json().balance).toBe(0);
  });

  it('two debits at once that together exceed the balance: one succeeds, one is 409', async () => {
    const user = await createUser(t, { walletBalanceMinor: 1000 });
    const results = await Promise.all([adjust(user.id, { amount: -7, reason: 'Race one' }), adjust(user.id, { amount: -7, reason: 'Race two' })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await balanceOf(user.id)).toBe(300);
  });

  it('bad amounts and reasons are 400; no wallet is 404; only finance and admin may adjust (403)', async () => {
    const user = await createUser(t, { walletBalanceMinor: 100 });
    const cases: Array<[object, string]> = [
      [{ amount: 0, reason: 'Zero' }, 'amount'],
      [{ amount: 1.234, reason: 'Too precise' }, 'amount'],
      [{ amount: '5', reason: 'A string' }, 'amount'],
      [{ amount: 100001, reason: 'Too much' }, 'amount'],
      [{ reason: 'No amount' }, 'amount'],
      [{ amount: 1 }, 'reason'],
      [{ amount: 1, reason: 'ab' }, 'reason'],
      [{ amount: 1, reason: 'Extra', note: 'x' }, 'note'],
    ];
    for (const [payload, field] of cases) {
      const res = await adjust(user.id, payload);
      expect([JSON.stringify(payload), res.statusCode, res.json().details?.[0]?.field]).toEqual([JSON.stringify(payload), 400, field]);
    }
    expect(await balanceOf(user.id)).toBe(100);
    const unregistered = await createUser(t, { registered: false });
    expect((await adjust(unregistered.id, { amount: 1, reason: 'No wallet yet' })).json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Wallet not found',
    });
    const ops = await createOperator(t, 'ops');
    expect((await adjust(user.id, { amount: 1, reason: 'Not mine' }, ops.accessToken)).json().message).toBe('Not allowed for your role');
    const admin = await createOperator(t, 'admin');
    expect((await adjust(user.id, { amount: 1, reason: 'Admin may' }, admin.accessToken)).statusCode).toBe(200);
  });
});
