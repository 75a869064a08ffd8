import { createUser, fundWallet, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { api, balanceOf, ledgerBalanced, PaymentsWorld, startPaymentsApp } from './payments-helpers';

/** CONTRACT §12 "Payouts": connected accounts, readiness, transfers that debit the wallet once. */
describe('payouts', () => {
  let w: PaymentsWorld;
  /** A second instance on the same database and the same Stripe. */
  let b: TestApp;

  beforeAll(async () => {
    w = await startPaymentsApp();
    b = await startTestApp({
      databaseUrl: w.t.databaseUrl,
      env: {
        STRIPE_SECRET_KEY: w.fake.secretKey,
        STRIPE_WEBHOOK_SECRET: w.fake.webhookSecret,
        STRIPE_API_BASE: w.fake.url,
        PUBLIC_BASE_URL: 'https://rides.example',
      },
    });
  });
  afterAll(async () => {
    await b.close();
    await w.close();
  });
  beforeEach(() => {
    w.fake.script = [];
    w.fake.outage = undefined;
  });

  const transfersOf = (driverId: number) =>
    [...w.fake.objects.transfer.values()].filter((tr) => w.fake.objects.account.get(tr.destination as string)?.metadata?.driver_id === String(driverId));
  const payoutsOf = (driverId: number) => w.t.db.query(`SELECT amount_minor FROM payouts WHERE driver_id = $1 ORDER BY created_at`, [driverId]);

  /** A driver whose account Stripe reports ready, with `balance` minor units in the wallet. */
  async function readyDriver(balance = 5000): Promise<TestUser & { accountId: string }> {
    const driver = await createUser(w.t, { role: 'driver' });
    if (balance) await fundWallet(w.t, driver.id, balance);
    expect((await api(w.t, driver, 'POST', '/driver/payouts/account')).statusCode).toBe(201);
    const [row] = await w.t.db.query(`SELECT stripe_account_id FROM payout_accounts WHERE driver_id = $1`, [driver.id]);
    expect((await w.fake.sendWebhook(w.webhookUrl, w.fake.event('account.updated', w.fake.completeOnboarding(row.stripe_account_id)))).status).toBe(200);
    return { ...driver, accountId: row.stripe_account_id };
  }

  it('links a payout account: an Express account created once, and a fresh onboarding link each time', async () => {
    const driver = await createUser(w.t, { role: 'driver' });
    const first = await api(w.t, driver, 'POST', '/driver/payouts/account');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ url: expect.stringMatching(/^http/) });
    const second = await api(w.t, driver, 'POST', '/driver/payouts/account');
    expect(second.json().url).not.toBe(first.json().url);
    const accounts = w.fake.posts().filter((r) => r.path === '/v1/accounts' && r.idempotencyKey === `account:${driver.id}`);
    expect(accounts.map((r) => r.body)).toEqual([
      { type: 'express', country: 'US', capabilities: { transfers: { requested: 'true' } }, metadata: { driver_id: String(driver.id) } },
    ]);
    const links = w.fake.posts().filter((r) => r.path === '/v1/account_links' && r.idempotencyKey?.startsWith(`account:${driver.id}:link:`));
    expect(links).toHaveLength(2);
    expect(links[0]!.body).toEqual({
      account: accounts[0]!.response && (accounts[0]!.response as { id: string }).id,
      type: 'account_onboarding',
      refresh_url: 'https://rides.example/payouts/onboarding/refresh',
      return_url: 'https://rides.example/payouts/onboarding/return',
    });
    const profile = await w.t.request({ method: 'GET', url: '/api/v1/driver/profile', token: driver.accessToken });
    expect(profile.json().payouts_enabled).toBe(false);
  });

  it('drivers only', async () => {
    const passenger = await createUser(w.t);
    for (const [method, url] of [
      ['POST', '/driver/payouts/account'],
      ['POST', '/driver/payouts'],
      ['GET', '/driver/payouts'],
    ] as const) {
      expect((await api(w.t, passenger, method, url, method === 'POST' ? { amount: 20 } : undefined)).statusCode).toBe(403);
    }
  });

  it('refuses a payout before the account is ready (409), under PAYOUT_MINIMUM (400) or above the balance (409)', async () => {
    const driver = await createUser(w.t, { role: 'driver' });
    await fundWallet(w.t, driver.id, 5000);
    const notLinked = await api(w.t, driver, 'POST', '/driver/payouts', { amount: 20 });
    expect([notLinked.statusCode, notLinked.json().message]).toEqual([409, 'Payout account is not ready; finish onboarding first']);
    expect((await api(w.t, driver, 'POST', '/driver/payouts/account')).statusCode).toBe(201);
    expect((await api(w.t, driver, 'POST', '/driver/payouts', { amount: 20 })).statusCode).toBe(409);
    const ready = await readyDriver(1500);
    const small = await api(w.t, ready, 'POST', '/driver/payouts', { amount: 9.99 });
    expect([small.statusCode, small.json().message]).toEqual([400, 'Payout must be at least 10.00 USD']);
    const big = await api(w.t, ready, 'POST', '/driver/payouts', { amount: 15.01 });
    expect([big.statusCode, big.json().message]).toEqual([409, 'Payout exceeds the wallet balance']);
    for (const amount of [10.001, -10, '10', null]) expect((await api(w.t, ready, 'POST', '/driver/payouts', { amount })).statusCode).toBe(400);
    expect(transfersOf(ready.id)).toEqual([]);
    expect(await balanceOf(w.t, ready.id)).toBe(1500);
  });

  it('pays out: one transfer (payout:{id}) and the wallet debited in one ledger transaction; listed newest first', async () => {
    const driver = await readyDriver(5000);
    const res = await api(w.t, driver, 'POST', '/driver/payouts', { amount: 12.5 });
    expect(res.statusCode).toBe(201);
    const payout = res.json();
    expect(payout).toEqual({ id: expect.any(String), amount: 12.5, currency: 'USD', status: 'paid', created_at: expect.any(String) });
    const [transfer] = w.fake.posts().filter((r) => r.path === '/v1/transfers' && r.idempotencyKey === `payout:${payout.id}`);
    expect(transfer!.body).toEqual({ amount: '1250', currency: 'usd', destination: driver.accountId, metadata: { payout_id: payout.id } });
    expect(await balanceOf(w.t, driver.id)).toBe(3750);
    const entries = await w.t.db.query(`SELECT kind, amount_minor FROM wallet_ledger_entries WHERE transfer_id = $1 ORDER BY amount_minor`, [payout.id]);
    expect(entries).toEqual([
      { kind: 'payout', amount_minor: -1250 },
      { kind: 'payout', amount_minor: 1250 },
    ]);
    const second = (await api(w.t, driver, 'POST', '/driver/payouts', { amount: 10 })).json();
    const list = await api(w.t, driver, 'GET', '/driver/payouts?page=1&limit=1');
    expect(list.json()).toEqual({ items: [second], page: 1, limit: 1, total: 2 });
    expect((await api(w.t, driver, 'GET', '/driver/payouts')).json().items.map((p: { id: string }) => p.id)).toEqual([second.id, payout.id]);
  });

  it('a transfer Stripe refuses is 409 "Payout refused by the payment provider", nothing debited', async () => {
    const driver = await readyDriver(3000);
    w.fake.refuseNextTransfer();
    const res = await api(w.t, driver, 'POST', '/driver/payouts', { amount: 20 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Payout refused by the payment provider');
    expect(await balanceOf(w.t, driver.id)).toBe(3000);
    expect(await payoutsOf(driver.id)).toEqual([]);
  });

  it('an outage is 503 with Retry-After, nothing recorded; Stripe retried by us pays once', async () => {
    const driver = await readyDriver(3000);
    w.fake.script = [503, 502];
    const down = await api(w.t, driver, 'POST', '/driver/payouts', { amount: 20 });
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBeDefined();
    expect(await balanceOf(w.t, driver.id)).toBe(3000);
    expect(await payoutsOf(driver.id)).toEqual([]);
    w.fake.script = [500];
    const res = await api(w.t, driver, 'POST', '/driver/payouts', { amount: 20 });
    expect(res.statusCode).toBe(201);
    const attempts = w.fake.posts().filter((r) => r.idempotencyKey === `payout:${res.json().id}`);
    expect(attempts.map((r) => r.status)).toEqual([500, 200]);
    expect(transfersOf(driver.id)).toHaveLength(1);
    expect(await balanceOf(w.t, driver.id)).toBe(1000);
  });

  it('a client retrying with its Idempotency-Key gets the same payout (200), even racing on two instances; another amount is 409', async () => {
    const driver = await readyDriver(5000);
    const headers = { 'idempotency-key': 'payout-retry-1' };
    const [onA, onB] = await Promise.all([
      api(w.t, driver, 'POST', '/driver/payouts', { amount: 15 }, headers),
      api(b, driver, 'POST', '/driver/payouts', { amount: 15 }, headers),
    ]);
    expect([onA.statusCode, onB.statusCode].sort()).toEqual([200, 201]);
    expect(onA.json()).toEqual(onB.json());
    const again = await api(w.t, driver, 'POST', '/driver/payouts', { amount: 15 }, headers);
    expect([again.statusCode, again.json().id]).toEqual([200, onA.json().id]);
    expect(transfersOf(driver.id)).toHaveLength(1);
    expect(await balanceOf(w.t, driver.id)).toBe(3500);
    const other = await api(w.t, driver, 'POST', '/driver/payouts', { amount: 16 }, headers);
    expect(other.statusCode).toBe(409);
    expect((await api(w.t, driver, 'POST', '/driver/payouts', { amount: 15 }, { 'idempotency-key': 'bad key' })).statusCode).toBe(400);
  });

  it('a payout whose answer never came back (made at Stripe, not recorded here) is paid once when the client retries with its key', async () => {
    const driver = await readyDriver(4000);
    const headers = { 'idempotency-key': 'lost-answer-1' };
    // Every answer is lost on the way back, the library's and our retries included: 503, nothing recorded.
    w.fake.script = ['drop', 'drop', 'drop', 'drop'];
    const lost = await api(w.t, driver, 'POST', '/driver/payouts', { amount: 25 }, headers);
    expect(lost.statusCode).toBe(503);
    expect(transfersOf(driver.id)).toHaveLength(1);
    expect(await balanceOf(w.t, driver.id)).toBe(4000);
    w.fake.script = [];
    const retried = await api(w.t, driver, 'POST', '/driver/payouts', { amount: 25 }, headers);
    expect(retried.statusCode).toBe(201);
    expect(transfersOf(driver.id)).toHaveLength(1);
    expect(await balanceOf(w.t, driver.id)).toBe(1500);
  });

  it('two instances paying out the whole balance at once: one is paid, the other is 409', async () => {
    const driver = await readyDriver(2000);
    const results = await Promise.all([api(w.t, driver, 'POST', '/driver/payouts', { amount: 20 }), api(b, driver, 'POST', '/driver/payouts', { amount: 20 })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(transfersOf(driver.id)).toHaveLength(1);
    expect(await balanceOf(w.t, driver.id)).toBe(0);
  });

  it('leaves the ledger balanced', async () => {
    expect(await ledgerBalanced(w.t)).toEqual({ wallets: [], transfers: [] });
  });
});
