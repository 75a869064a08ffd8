import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { expectNothingMore, LiveClient } from '../realtime/live-client';
import { acceptedRide, bookRide, onlineDriver, setStatus } from './ride-helpers';

/** CONTRACT §11, tips: once, within 24 h of completion, wallet to wallet, no commission, counted in earnings. */
describe('tips', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PLATFORM_COMMISSION_PERCENT: '10' } });
  });
  afterAll(() => t.close());

  const tip = (user: TestUser, rideId: string, payload: unknown) =>
    t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/tip`, token: user.accessToken, payload: payload as object });
  const balance = async (userId: number): Promise<number> =>
    (await t.db.query(`SELECT balance_minor FROM wallets WHERE user_id = $1`, [userId]))[0].balance_minor;

  async function completedRide(options: { payment?: 'cash' | 'wallet'; walletMinor?: number; amount?: number } = {}) {
    const passenger = await createUser(t, { walletBalanceMinor: options.walletMinor ?? 5_000 });
    const { driver, rideId } = await acceptedRide(t, { passenger, payment: options.payment ?? 'cash', amount: options.amount ?? 10 });
    for (const status of ['driver_arrived', 'started', 'completed']) expect((await setStatus(t, driver, rideId, status)).statusCode).toBe(200);
    return { passenger, driver, rideId };
  }

  async function ledgerIsConsistent(): Promise<void> {
    const mismatched = await t.db.query(
      `SELECT w.id FROM wallets w LEFT JOIN wallet_ledger_entries e ON e.wallet_id = w.id
        GROUP BY w.id HAVING w.balance_minor <> coalesce(sum(e.amount_minor), 0)`,
    );
    expect(mismatched).toEqual([]);
    const unbalanced = await t.db.query(`SELECT transfer_id FROM wallet_ledger_entries GROUP BY transfer_id HAVING sum(amount_minor) <> 0`);
    expect(unbalanced).toEqual([]);
  }

  it('pays a cash ride’s driver from the passenger’s wallet in one transfer, without commission: 201 {ride_id, amount, currency, created_at}', async () => {
    const { passenger, driver, rideId } = await completedRide({ payment: 'cash' });
    const live = await LiveClient.connect(t, driver.accessToken);
    const watcher = await LiveClient.connect(t, passenger.accessToken);
    const res = await tip(passenger, rideId, { amount: 2.5 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ ride_id: rideId, amount: 2.5, currency: 'USD', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });
    expect(await balance(passenger.id)).toBe(5_000 - 250);
    expect(await balance(driver.id)).toBe(250);
    const entries = await t.db.query(`SELECT kind, amount_minor, transfer_id FROM wallet_ledger_entries WHERE ride_id = $1 ORDER BY amount_minor`, [rideId]);
    expect(entries.map((e: { kind: string; amount_minor: number }) => [e.kind, e.amount_minor])).toEqual([
      ['ride_tip', -250],
      ['tip_earning', 250],
    ]);
    expect(entries[0].transfer_id).toBe(entries[1].transfer_id);
    const details = await t.request({ method: 'GET', url: `/api/v1/rides/${rideId}`, token: passenger.accessToken });
    expect(details.json()).toMatchObject({ tip: 2.5, fare: 10, status: 'completed' });
    // The driver hears of it live; the passenger, who tipped, gets no event.
    expect(await live.next()).toMatchObject({ type: 'ride_tipped', ride_id: rideId, data: { tip: res.json(), ride: { id: rideId, tip: 2.5 } } });
    await expectNothingMore([live, watcher]);
    await Promise.all([live.close(), watcher.close()]);
    await ledgerIsConsistent();
  });

  it('a ride carries tip null before a tip; a wallet ride is tipped on top of its fare', async () => {
    const { passenger, driver, rideId } = await completedRide({ payment: 'wallet', amount: 10 });
    const before = await t.request({ method: 'GET', url: `/api/v1/rides/${rideId}`, token: driver.accessToken });
    expect(before.json().tip).toBeNull();
    expect((await tip(passenger, rideId, { amount: 1.99 })).statusCode).toBe(201);
    // The details were cached by the read above: the tip's event cleared them.
    expect((await t.request({ method: 'GET', url: `/api/v1/rides/${rideId}`, token: driver.accessToken })).json().tip).toBe(1.99);
    expect(await balance(passenger.id)).toBe(5_000 - 1_000 - 199);
    expect(await balance(driver.id)).toBe(900 + 199);
    await ledgerIsConsistent();
  });

  it('earnings carry tips and count them in total and in the period they were received', async () => {
    const driver = await onlineDriver(t);
    const passenger = await createUser(t, { walletBalanceMinor: 5_000 });
    for (const amount of [10, 20]) {
      const { rideId } = await acceptedRide(t, { passenger, driver, amount });
      for (const status of ['driver_arrived', 'started', 'completed']) expect((await setStatus(t, driver, rideId, status)).statusCode).toBe(200);
      if (amount === 20) expect((await tip(passenger, rideId, { amount: 3.25 })).statusCode).toBe(201);
    }
    const earnings = (await t.request({ method: 'GET', url: '/api/v1/driver/earnings', token: driver.accessToken })).json();
    // Earnings 9.00 + 18.00 after the 10 % commission, plus the 3.25 tip (no commission on tips).
    expect(earnings).toMatchObject({ total: 30.25, tips: 3.25, today: 30.25, this_week: 30.25, this_month: 30.25, rides_count: 2 });
    expect(earnings.items.map((i: { fare: number; tip: number | null }) => [i.fare, i.tip])).toEqual([
      [20, 3.25],
      [10, null],
    ]);
  });

  it('tips once: a second tip is 409 and pays nothing', async () => {
    const { passenger, driver, rideId } = await completedRide();
    expect((await tip(passenger, rideId, { amount: 1 })).statusCode).toBe(201);
    const again = await tip(passenger, rideId, { amount: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Ride was already tipped' });
    expect(await balance(driver.id)).toBe(100);
  });

  it('exactly once under concurrent calls: one 201, the rest 409, wallets equal their ledgers', async () => {
    const { passenger, driver, rideId } = await completedRide({ walletMinor: 10_000 });
    const results = await Promise.all(Array.from({ length: 8 }, () => tip(passenger, rideId, { amount: 5 })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(await balance(passenger.id)).toBe(10_000 - 500);
    expect(await balance(driver.id)).toBe(500);
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM wallet_ledger_entries WHERE ride_id = $1`, [rideId]);
    expect(count).toBe(2);
    await ledgerIsConsistent();
  });

  it('two rides tipped at once from a wallet that covers one tip: one 201, one 409, never below zero, wallets equal their ledgers', async () => {
    for (let round = 0; round < 3; round += 1) {
      const passenger = await createUser(t, { walletBalanceMinor: 700 });
      const rides: string[] = [];
      for (let i = 0; i < 2; i += 1) {
        const { driver, rideId } = await acceptedRide(t, { passenger });
        for (const status of ['driver_arrived', 'started', 'completed']) expect((await setStatus(t, driver, rideId, status)).statusCode).toBe(200);
        rides.push(rideId);
      }
      // Each ride's lock is its own: the two statements meet at the passenger's wallet, which each judges as locked.
      const results = await Promise.all(rides.map((rideId) => tip(passenger, rideId, { amount: 5 })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(results.find((r) => r.statusCode === 409)!.json().message).toBe('Wallet balance does not cover the tip');
      expect(await balance(passenger.id)).toBe(200);
    }
    await ledgerIsConsistent();
  });

  it('a short balance is 409 and writes nothing; the passenger may tip once topped up', async () => {
    const { passenger, driver, rideId } = await completedRide({ walletMinor: 300 });
    const res = await tip(passenger, rideId, { amount: 3.01 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Wallet balance does not cover the tip' });
    expect(await balance(passenger.id)).toBe(300);
    const [ride] = await t.db.query(`SELECT tip_minor, tipped_at FROM rides WHERE id = $1`, [rideId]);
    expect(ride).toEqual({ tip_minor: null, tipped_at: null });
    expect((await tip(passenger, rideId, { amount: 3 })).statusCode).toBe(201);
    expect(await balance(driver.id)).toBe(300);
  });

  it('only within 24 h after completion (409 after)', async () => {
    const { passenger, rideId } = await completedRide();
    await t.db.query(`UPDATE rides SET completed_at = now() - interval '24 hours 1 second' WHERE id = $1`, [rideId]);
    const late = await tip(passenger, rideId, { amount: 1 });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Tips are accepted only within 24 hours of completion' });
    await t.db.query(`UPDATE rides SET completed_at = now() - interval '23 hours 59 minutes' WHERE id = $1`, [rideId]);
    expect((await tip(passenger, rideId, { amount: 1 })).statusCode).toBe(201);
  });

  it('a ride whose driver deleted the account cannot be tipped (409), and nothing is paid', async () => {
    const { passenger, rideId } = await completedRide();
    await t.db.query(`UPDATE rides SET driver_id = NULL WHERE id = $1`, [rideId]); // what the account deletion's SET NULL leaves
    const res = await tip(passenger, rideId, { amount: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'The driver of this ride can no longer receive tips' });
    expect(await balance(passenger.id)).toBe(5_000);
  });

  it('only a completed ride (409 before completion)', async () => {
    const passenger = await createUser(t, { walletBalanceMinor: 1_000 });
    const requested = await bookRide(t, passenger);
    const res = await tip(passenger, requested.id, { amount: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Ride is not completed' });
  });

  it('by the ride’s passenger only: another passenger 404, a driver 403, an unknown id 404', async () => {
    const { driver, rideId } = await completedRide();
    const other = await tip(await createUser(t, { walletBalanceMinor: 1_000 }), rideId, { amount: 1 });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Ride not found' });
    expect((await tip(driver, rideId, { amount: 1 })).statusCode).toBe(403);
    expect((await tip(await createUser(t), '3f1c7d1e-0000-4000-8000-00000000beef', { amount: 1 })).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/tip`, payload: { amount: 1 } })).statusCode).toBe(401);
  });

  it.each([
    [{ amount: 0 }, 'amount must not be less than 0.01'],
    [{ amount: -1 }, 'amount must not be less than 0.01'],
    [{ amount: 1.234 }, 'amount must have at most 2 decimal places'],
    [{ amount: '1' }, 'amount must be a number conforming to the specified constraints'],
    [{}, 'amount must be a number conforming to the specified constraints'],
    [{ amount: 1, note: 'x' }, 'property note should not exist'],
  ])('refuses %p with 400 (%s)', async (body, message) => {
    const { passenger, rideId } = await completedRide();
    const res = await tip(passenger, rideId, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toContainEqual(expect.objectContaining({ message }));
    expect(await balance(passenger.id)).toBe(5_000);
  });
});
