import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { acceptedRide, bookRide, onlineDriver, placeBid, accept, setStatus } from './ride-helpers';

describe('money: payments at completion (10% platform commission)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PLATFORM_COMMISSION_PERCENT: '10' } });
  });
  afterAll(() => t.close());

  async function complete(driver: Parameters<typeof setStatus>[1], rideId: string): Promise<void> {
    for (const status of ['driver_arrived', 'started', 'completed']) {
      expect((await setStatus(t, driver, rideId, status)).statusCode).toBe(200);
    }
  }

  it('after a mixed run of cash and wallet rides every balance equals its ledger and the ledger sums to zero', async () => {
    const passengers = await Promise.all([0, 1, 2].map(() => createUser(t, { walletBalanceMinor: 10_000 })));
    const drivers = await Promise.all([0, 1].map(() => onlineDriver(t)));
    const amounts = [12.35, 7.05, 20, 3.33, 15.99, 9.95];
    for (const [i, amount] of amounts.entries()) {
      const { rideId, driver } = await acceptedRide(t, {
        passenger: passengers[i % 3],
        driver: drivers[i % 2],
        amount,
        payment: i % 2 === 0 ? 'wallet' : 'cash',
      });
      await complete(driver, rideId);
    }

    const mismatched = await t.db.query(
      `SELECT w.id, w.balance_minor, coalesce(sum(e.amount_minor), 0)::bigint AS ledger
         FROM wallets w LEFT JOIN wallet_ledger_entries e ON e.wallet_id = w.id
        GROUP BY w.id HAVING w.balance_minor <> coalesce(sum(e.amount_minor), 0)`,
    );
    expect(mismatched).toEqual([]);
    const [{ total }] = await t.db.query(`SELECT coalesce(sum(amount_minor), 0)::bigint AS total FROM wallet_ledger_entries`);
    expect(total).toBe(0);
    const [{ sum }] = await t.db.query(`SELECT sum(balance_minor)::bigint AS sum FROM wallets`);
    expect(sum).toBe(0);

    // Wallet rides: 12.35, 20, 15.99 → commission 1.24 (1.235 half up), 2.00, 1.60 (1.599).
    const [platform] = await t.db.query(`SELECT balance_minor FROM wallets WHERE kind = 'platform'`);
    expect(platform.balance_minor).toBe(124 + 200 + 160);
    const payments = await t.db.query(`SELECT method, fare_minor, commission_minor, driver_earning_minor FROM ride_payments ORDER BY fare_minor`);
    expect(payments).toEqual([
      { method: 'cash', fare_minor: 333, commission_minor: 33, driver_earning_minor: 300 },
      { method: 'cash', fare_minor: 705, commission_minor: 71, driver_earning_minor: 634 },
      { method: 'cash', fare_minor: 995, commission_minor: 100, driver_earning_minor: 895 },
      { method: 'wallet', fare_minor: 1235, commission_minor: 124, driver_earning_minor: 1111 },
      { method: 'wallet', fare_minor: 1599, commission_minor: 160, driver_earning_minor: 1439 },
      { method: 'wallet', fare_minor: 2000, commission_minor: 200, driver_earning_minor: 1800 },
    ]);

    // Driver 0 drove rides 0, 2, 4 (all wallet): earnings 11.11 + 18.00 + 14.39.
    const earnings = (await t.request({ method: 'GET', url: '/api/v1/driver/earnings?limit=2', token: drivers[0]!.accessToken })).json();
    expect(earnings).toMatchObject({ total: 43.5, today: 43.5, rides_count: 3, page: 1, limit: 2 });
    expect(earnings.items).toHaveLength(2);
    const [wallet] = await t.db.query(`SELECT balance_minor FROM wallets WHERE user_id = $1`, [drivers[0]!.id]);
    expect(wallet.balance_minor).toBe(1111 + 1800 + 1439);
  });

  it('a wallet ride needs the balance at accept time (409 otherwise)', async () => {
    const passenger = await createUser(t, { walletBalanceMinor: 500 });
    const driver = await onlineDriver(t);
    const ride = await bookRide(t, passenger, { payment_method: 'wallet' });
    const bid = await placeBid(t, driver, ride.id, 5.01);
    const res = await accept(t, passenger, ride.id, bid.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Wallet balance does not cover the fare');
    const cheaper = await placeBid(t, driver, ride.id, 5);
    expect(cheaper.id).toBe(bid.id);
    expect((await accept(t, passenger, ride.id, bid.id)).statusCode).toBe(200);
  });
});
