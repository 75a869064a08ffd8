import type { LightMyRequestResponse } from 'fastify';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * No user enumeration through send-otp: a registered and an unknown phone get the same status and
 * body, and a registered account takes about as long as a pending sign-up that never registered.
 * Timing on a shared machine is noisy, so the samples are interleaved, medians compared, and the
 * bound generous: within 2 ms or 25 % of the slower median.
 *
 * The very first send-otp for a phone nobody used yet also creates the pending user; that INSERT
 * commits without waiting for the WAL flush, so it adds a fraction of a millisecond, not a flush.
 */
const SAMPLES = 300;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

describe('no user enumeration by send-otp', () => {
  let t: TestApp;
  let known: TestUser;
  let registered: TestUser[];
  let pending: string[];
  let sequence = 0;

  beforeAll(async () => {
    t = await startTestApp();
    known = await createUser(t);
    registered = await Promise.all(Array.from({ length: 10 }, () => createUser(t)));
    pending = Array.from({ length: 10 }, () => unknownPhone());
    for (const phone of pending) expect((await timed(phone)).res.statusCode).toBe(200);
    const [row] = await t.db.query(`SELECT count(*)::int AS n FROM users WHERE phone = ANY($1) AND NOT is_registered`, [pending]);
    expect(row.n).toBe(10);
  });
  afterAll(() => t?.close());

  function unknownPhone(): string {
    sequence += 1;
    return `+1666${String(process.pid % 1000).padStart(3, '0')}${String(sequence).padStart(4, '0')}`;
  }

  async function timed(phone: string): Promise<{ ms: number; res: LightMyRequestResponse }> {
    const start = process.hrtime.bigint();
    const res = await t.request({ method: 'POST', url: '/api/v1/auth/send-otp', payload: { phone } });
    return { ms: Number(process.hrtime.bigint() - start) / 1e6, res };
  }

  it('a registered and an unknown phone get the same status and body', async () => {
    const a = await timed(known.phone);
    const b = await timed(unknownPhone());
    expect(a.res.statusCode).toBe(200);
    expect(b.res.statusCode).toBe(a.res.statusCode);
    expect(b.res.body).toBe(a.res.body);
  });

  it(`${SAMPLES} interleaved calls each: registered and pending phones, medians within 2 ms or 25 %`, async () => {
    for (let i = 0; i < 20; i += 1) {
      await timed(registered[i % 10]!.phone);
      await timed(pending[i % 10]!);
    }
    const registeredMs: number[] = [];
    const pendingMs: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) {
      const a = { phone: registered[i % 10]!.phone, into: registeredMs };
      const b = { phone: pending[i % 10]!, into: pendingMs };
      // Alternate which goes first, so that neither always follows the other's database work.
      for (const { phone, into } of i % 2 ? [a, b] : [b, a]) {
        const { ms, res } = await timed(phone);
        expect(res.statusCode).toBe(200);
        into.push(ms);
      }
    }
    const registeredMedian = median(registeredMs);
    const pendingMedian = median(pendingMs);
    const bound = Math.max(2, 0.25 * Math.max(registeredMedian, pendingMedian));
    if (process.env.TIMING_VERBOSE) {
      process.stdout.write(
        `send-otp medians: registered ${registeredMedian.toFixed(3)} ms, pending ${pendingMedian.toFixed(3)} ms, bound ${bound.toFixed(3)} ms\n`,
      );
    }
    expect(Math.abs(registeredMedian - pendingMedian)).toBeLessThan(bound);
  }, 120_000);

  it(`${SAMPLES} interleaved calls each: registered and never-seen phones, medians within 2 ms or 25 %`, async () => {
    const registeredMs: number[] = [];
    const unknownMs: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) {
      const a = { phone: registered[i % 10]!.phone, into: registeredMs };
      const b = { phone: unknownPhone(), into: unknownMs };
      for (const { phone, into } of i % 2 ? [a, b] : [b, a]) {
        const { ms, res } = await timed(phone);
        expect(res.statusCode).toBe(200);
        into.push(ms);
      }
    }
    const registeredMedian = median(registeredMs);
    const unknownMedian = median(unknownMs);
    const bound = Math.max(2, 0.25 * Math.max(registeredMedian, unknownMedian));
    if (process.env.TIMING_VERBOSE) {
      process.stdout.write(
        `send-otp medians: registered ${registeredMedian.toFixed(3)} ms, never seen ${unknownMedian.toFixed(3)} ms, bound ${bound.toFixed(3)} ms\n`,
      );
    }
    expect(Math.abs(registeredMedian - unknownMedian)).toBeLessThan(bound);
  }, 120_000);
});
