import { WalletsService } from '../../src/modules/wallets/wallets.service';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

describe('wallets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function ledgerSum(walletUserId?: number): Promise<number> {
    const [row] = walletUserId
      ? await t.db.query(
          `SELECT COALESCE(sum(e.amount_minor), 0) AS s FROM wallet_ledger_entries e JOIN wallets w ON w.id = e.wallet_id WHERE w.user_id = $1`,
          [walletUserId],
        )
      : await t.db.query(`SELECT COALESCE(sum(amount_minor), 0) AS s FROM wallet_ledger_entries`);
    return Number(row.s);
  }

  it('GET /api/v1/wallet returns only the caller’s balance in major units', async () => {
    const rich = await createUser(t, { walletBalanceMinor: 12345 });
    const poor = await createUser(t);
    const a = await t.request({ method: 'GET', url: '/api/v1/wallet', token: rich.accessToken });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toMatchObject({ user_id: rich.id, balance: 123.45, currency: 'USD' });
    const b = await t.request({ method: 'GET', url: '/api/v1/wallet', token: poor.accessToken });
    expect(b.json()).toMatchObject({ user_id: poor.id, balance: 0 });
  });

  it('requires an access token', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/wallet' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('an account without a wallet gets 404', async () => {
    const pending = await createUser(t, { registered: false });
    const res = await t.request({ method: 'GET', url: '/api/v1/wallet', token: pending.accessToken });
    expect(res.statusCode).toBe(404);
  });

  it('operator credit is a balanced transfer and the balance equals the entries', async () => {
    const user = await createUser(t);
    const wallets = t.get(WalletsService);
    const after = await wallets.creditFromExternal(user.id, 2500, 'promo top-up');
    expect(after.balanceMinor).toBe(2500);
    expect(await ledgerSum(user.id)).toBe(2500);
    expect(await ledgerSum()).toBe(0);
    await expect(wallets.creditFromExternal(user.id, 0, 'x')).rejects.toMatchObject({ code: 'INVALID_AMOUNT' });
    await expect(wallets.creditFromExternal(999999, 100, 'x')).rejects.toMatchObject({ code: 'WALLET_NOT_FOUND' });
  });

  it('pays a wallet ride once, with the commission to the platform', async () => {
    const passenger = await createUser(t, { walletBalanceMinor: 5000 });
    const driver = await createUser(t, { role: 'driver' });
    const wallets = t.get(WalletsService);
    const rideId = '00000000-0000-4000-8000-000000000001';
    await t.db.transaction((m) => wallets.payRide(m, { rideId, passengerId: passenger.id, driverId: driver.id, fareMinor: 2000, commissionMinor: 300 }));
    expect((await wallets.getWallet(passenger.id)).balanceMinor).toBe(3000);
    expect((await wallets.getWallet(driver.id)).balanceMinor).toBe(1700);
    await expect(
      t.db.transaction((m) => wallets.payRide(m, { rideId, passengerId: passenger.id, driverId: driver.id, fareMinor: 2000, commissionMinor: 300 })),
    ).rejects.toThrow(/wallet_ledger_ride_once_uq|duplicate key/);
    expect((await wallets.getWallet(passenger.id)).balanceMinor).toBe(3000);
    expect(await ledgerSum()).toBe(0);
  });

  it('refuses a payment the balance does not cover', async () => {
    const passenger = await createUser(t, { walletBalanceMinor: 100 });
    const driver = await createUser(t, { role: 'driver' });
    const wallets = t.get(WalletsService);
    await expect(
      t.db.transaction((m) =>
        wallets.payRide(m, {
          rideId: '00000000-0000-4000-8000-000000000002',
          passengerId: passenger.id,
          driverId: driver.id,
          fareMinor: 2000,
          commissionMinor: 0,
        }),
      ),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
  });

  it('ledger entries can be neither updated nor deleted', async () => {
    const user = await createUser(t, { walletBalanceMinor: 100 });
    await expect(t.db.query(`UPDATE wallet_ledger_entries SET amount_minor = 1`)).rejects.toThrow(/append-only/);
    await expect(t.db.query(`DELETE FROM wallet_ledger_entries`)).rejects.toThrow(/append-only/);
    expect(await ledgerSum(user.id)).toBe(100);
  });
});
