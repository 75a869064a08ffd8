import { executeCommand } from '../../src/cli/commands';
import { createUser, fundWallet } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { accept, acceptedRide, bookingBody, bookRide, onlineDriver, placeBid, setStatus } from '../rides/ride-helpers';

describe('races', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { DB_POOL_SIZE: '20' } });
  });
  afterAll(() => t.close());

  it('20 concurrent accepts of different bids on one ride: exactly one succeeds', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    const drivers = await Promise.all(Array.from({ length: 20 }, () => onlineDriver(t)));
    const bids = [];
    for (const [i, d] of drivers.entries()) bids.push(await placeBid(t, d, ride.id, 10 + i));

    const results = await Promise.all(bids.map((b) => accept(t, passenger, ride.id, b.id)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);

    const winner = results.find((r) => r.statusCode === 200)!.json();
    const [row] = await t.db.query(`SELECT status, driver_id, fare_minor FROM rides WHERE id = $1`, [ride.id]);
    expect(row).toMatchObject({ status: 'accepted', driver_id: winner.driver.id, fare_minor: Math.round(winner.fare * 100) });
    const statuses = await t.db.query(`SELECT status, count(*)::int AS n FROM bids WHERE ride_id = $1 GROUP BY status ORDER BY status`, [ride.id]);
    expect(statuses).toEqual([
      { status: 'accepted', n: 1 },
      { status: 'rejected', n: 19 },
    ]);
  });

  it("one driver's bids accepted concurrently on two rides: the driver gets only one ride", async () => {
    for (let round = 0; round < 5; round += 1) {
      const driver = await onlineDriver(t);
      const p1 = await createUser(t);
      const p2 = await createUser(t);
      const r1 = await bookRide(t, p1);
      const r2 = await bookRide(t, p2);
      const b1 = await placeBid(t, driver, r1.id);
      const b2 = await placeBid(t, driver, r2.id);
      const results = await Promise.all([accept(t, p1, r1.id, b1.id), accept(t, p2, r2.id, b2.id)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM rides WHERE driver_id = $1 AND status IN ('accepted', 'driver_arrived', 'started')`, [
        driver.id,
      ]);
      expect(n).toBe(1);
    }
  });

  it('concurrent completion pays exactly once', async () => {
    const passenger = await createUser(t, { walletBalanceMinor: 5000 });
    const { rideId, driver } = await acceptedRide(t, { passenger, payment: 'wallet', amount: 12.34 });
    await setStatus(t, driver, rideId, 'driver_arrived');
    await setStatus(t, driver, rideId, 'started');
    const results = await Promise.all(Array.from({ length: 10 }, () => setStatus(t, driver, rideId, 'completed')));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(9);
    const payments = await t.db.query(`SELECT fare_minor FROM ride_payments WHERE ride_id = $1`, [rideId]);
    expect(payments).toEqual([{ fare_minor: 1234 }]);
    const entries = await t.db.query(`SELECT kind, amount_minor FROM wallet_ledger_entries WHERE ride_id = $1 ORDER BY kind`, [rideId]);
    expect(entries).toEqual([
      { kind: 'ride_earning', amount_minor: 1234 },
      { kind: 'ride_fare', amount_minor: -1234 },
    ]);
    const [wallet] = await t.db.query(`SELECT balance_minor FROM wallets WHERE user_id = $1`, [passenger.id]);
    expect(wallet.balance_minor).toBe(5000 - 1234);
  });

  it('the same Idempotency-Key sent concurrently books one ride', async () => {
    const passenger = await createUser(t);
    const body = bookingBody();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload: body, headers: { 'idempotency-key': 'k-123' } }),
      ),
    );
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 201)).toBe(true);
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM rides WHERE passenger_id = $1`, [passenger.id]);
    expect(n).toBe(1);
  });

  it('concurrent bookings without a key: one ride, the rest 409', async () => {
    const passenger = await createUser(t);
    await fundWallet(t, passenger.id, 100);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload: bookingBody() })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
  });

  it('after the races the books balance (ledger:check)', async () => {
    expect(await executeCommand(t.app, ['ledger:check'])).toMatch(/^Ledger balanced: /);
  });
});
