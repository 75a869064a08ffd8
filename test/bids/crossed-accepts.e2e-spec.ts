import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { accept, bookRide, onlineDriver, placeBid } from '../rides/ride-helpers';

/**
 * Two drivers bid on two rides; both passengers accept at the same moment, each a different driver.
 * Each acceptance rejects its ride's other bid and withdraws its winner's bid on the other ride, so
 * the two touch the same bid rows: they must never deadlock into a 500, only succeed or get 409.
 */
const CONCURRENT_ROUNDS = 8;

describe('crossed accepts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { DB_POOL_SIZE: '20' } });
  });
  afterAll(() => t.close());

  it('200 rounds of two crossed accepts answer only 200 or 409, and every ride ends with one driver', async () => {
    const codes = new Map<number, number>();
    const round = async (n: number): Promise<void> => {
      const [p1, p2, d1, d2] = await Promise.all([createUser(t), createUser(t), onlineDriver(t), onlineDriver(t)]);
      const [r1, r2] = await Promise.all([bookRide(t, p1), bookRide(t, p2)]);
      const [b11, , , b22] = await Promise.all([placeBid(t, d1, r1.id), placeBid(t, d2, r1.id), placeBid(t, d1, r2.id), placeBid(t, d2, r2.id)]);
      const results = await Promise.all([accept(t, p1, r1.id, b11.id), accept(t, p2, r2.id, b22.id)]);
      for (const r of results) {
        codes.set(r.statusCode, (codes.get(r.statusCode) ?? 0) + 1);
        if (r.statusCode !== 200 && r.statusCode !== 409) throw new Error(`round ${n}: ${r.statusCode} ${r.body}`);
      }
      const rows = await t.db.query(`SELECT driver_id, count(*)::int AS n FROM rides WHERE driver_id = ANY($1) AND status = 'accepted' GROUP BY driver_id`, [
        [d1.id, d2.id],
      ]);
      expect(rows.every((r: { n: number }) => r.n === 1)).toBe(true);
    };
    // Rounds share no rows, so several run at once: the crossing is within a round, as before.
    for (let first = 0; first < 200; first += CONCURRENT_ROUNDS) {
      await Promise.all(Array.from({ length: CONCURRENT_ROUNDS }, (_, i) => round(first + i)));
    }
    expect([...codes.keys()].every((c) => c === 200 || c === 409)).toBe(true);
    // Every bid ends settled: none is left pending on a ride that was accepted.
    const [{ n }] = await t.db.query(
      `SELECT count(*)::int AS n FROM bids b JOIN rides r ON r.id = b.ride_id WHERE r.status = 'accepted' AND b.status = 'pending'`,
    );
    expect(n).toBe(0);
  }, 180_000);
});
