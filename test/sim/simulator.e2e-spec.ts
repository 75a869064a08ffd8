import { startTestApp, TestApp } from '../support/test-app';

// The simulator is plain CommonJS run by node (sim/); its pure parts and one short run are checked here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { percentile, LatencyBook } = require('../../sim/lib/stats');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkPassengerWallet, checkDriverWallet } = require('../../sim/lib/money');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renderMap } = require('../../sim/lib/svg');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createRng, deriveSeed } = require('../../sim/lib/rng');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { runSimulation } = require('../../sim/lib/run');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ApiClient } = require('../../sim/lib/http');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createInbox } = require('../../sim/lib/inbox');

describe('simulator: pure parts', () => {
  it('percentile is nearest-rank', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([1, 2, 3], 50)).toBe(2);
    expect(percentile([], 50)).toBeUndefined();
    const book = new LatencyBook();
    [5, 1, 3].forEach((v) => book.add('x', v));
    expect(book.summary()).toEqual([{ key: 'x', count: 3, p50: 3, p95: 5, p99: 5, max: 5 }]);
  });

  it('the same seed gives the same choices, another seed others', () => {
    const draw = (seed: number) => {
      const rng = createRng(seed);
      return [...Array.from({ length: 5 }, () => rng.next()), createRng(deriveSeed(seed, 3)).next()];
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('passenger wallet: credits minus completed wallet fares, in cents', () => {
    expect(checkPassengerWallet({ userId: 1, balance: 129.7, creditedCents: 15000, walletFaresCents: [1010, 1020] })).toEqual([]);
    expect(checkPassengerWallet({ userId: 1, balance: 129.69, creditedCents: 15000, walletFaresCents: [1010, 1020] })).toEqual([
      expect.stringContaining('wallet balance 129.69, expected 129.70'),
    ]);
  });

  it('driver wallet: the wallet earnings, and every completed ride at its accepted fare', () => {
    const items = [
      { ride_id: 'a', payment_method: 'wallet', fare: 10.1, earning: 10.1 },
      { ride_id: 'b', payment_method: 'cash', fare: 8, earning: 8 },
    ];
    const rides = [
      { rideId: 'a', fareCents: 1010, paymentMethod: 'wallet' },
      { rideId: 'b', fareCents: 800, paymentMethod: 'cash' },
    ];
    expect(checkDriverWallet({ userId: 2, balance: 10.1, earningsItems: items, completedRides: rides })).toEqual([]);
    expect(checkDriverWallet({ userId: 2, balance: 18.1, earningsItems: items, completedRides: rides })).toHaveLength(1);
    expect(
      checkDriverWallet({ userId: 2, balance: 10.1, earningsItems: items, completedRides: [...rides, { rideId: 'c', fareCents: 1, paymentMethod: 'cash' }] }),
    ).toEqual([expect.stringContaining('missing from earnings')]);
    expect(
      checkDriverWallet({ userId: 2, balance: 10.1, earningsItems: items, completedRides: [{ rideId: 'b', fareCents: 900, paymentMethod: 'cash' }] }),
    ).toEqual([expect.stringContaining('accepted bid was 9.00')]);
  });

  it('tips: out of the passenger’s wallet, into the driver’s whatever the payment method, at the amount tipped', () => {
    expect(checkPassengerWallet({ userId: 1, balance: 127.7, creditedCents: 15000, walletFaresCents: [1010, 1020], tipsCents: [200] })).toEqual([]);
    expect(checkPassengerWallet({ userId: 1, balance: 129.7, creditedCents: 15000, walletFaresCents: [1010, 1020], tipsCents: [200] })).toHaveLength(1);
    const items = [
      { ride_id: 'a', payment_method: 'wallet', fare: 10.1, earning: 10.1, tip: null },
      { ride_id: 'b', payment_method: 'cash', fare: 8, earning: 8, tip: 2.5 },
    ];
    const rides = [
      { rideId: 'a', fareCents: 1010, paymentMethod: 'wallet', tipCents: null },
      { rideId: 'b', fareCents: 800, paymentMethod: 'cash', tipCents: 250 },
    ];
    expect(checkDriverWallet({ userId: 2, balance: 12.6, earningsItems: items, completedRides: rides })).toEqual([]);
    expect(checkDriverWallet({ userId: 2, balance: 10.1, earningsItems: items, completedRides: rides })).toHaveLength(1);
    expect(checkDriverWallet({ userId: 2, balance: 12.6, earningsItems: items, completedRides: [{ ...rides[1]!, tipCents: 300 }] })).toEqual([
      expect.stringContaining('passenger tipped 3.00'),
    ]);
  });

  it('a request that got no answer is a failure (status 0, not ok) and a violation, never a success', async () => {
    const violations: string[] = [];
    const counters = { requests: 0, errors: 0, serverErrors: 0, rateLimited: 0 };
    const api = new ApiClient({ latencies: new LatencyBook(), counters, report: (kind: string) => violations.push(kind) });
    // Port 9 (discard) on loopback: nothing listens, the connection is refused.
    const res = await api.call('http://127.0.0.1:9', 'POST', '/driver/rides/x/bid', { body: {} });
    expect(res).toMatchObject({ status: 0, ok: false, body: undefined });
    expect(violations).toEqual(['request-failed']);
    expect(counters.errors).toBe(1);
  });

  it('an event is timed from its request being sent, never clamped: one that beats the response counts its real time', async () => {
    const latencies = new LatencyBook();
    const user = { inbox: new Map(), pending: new Set(), waiters: new Set() };
    const inbox = createInbox({ eventTimeoutMs: 5000, report: jest.fn(), counters: {}, latencies, users: new Map([[1, user]]), now: () => 1000 });
    // Sent at 1000, answered at 1030: one event was in before the call looked, another arrives at 1012.
    inbox.deliver(user, { type: 'bid_submitted', ride_id: 'r1' }, 1008);
    inbox.expectEvent(user, 'bid_submitted', 'r1', (m: { type: string }) => m.type === 'bid_submitted', { sentAt: 1000, at: 1030 });
    inbox.expectEvent(user, 'ride_accepted', 'r1', (m: { type: string }) => m.type === 'ride_accepted', { sentAt: 1000, at: 1030 });
    inbox.deliver(user, { type: 'ride_accepted', ride_id: 'r1' }, 1012);
    await inbox.drain();
    expect(latencies.summary().map((r: { key: string; max: number }) => [r.key, r.max])).toEqual([
      ['bid_submitted', 8],
      ['ride_accepted', 12],
    ]);
  });

  it('the map names the city, explains every mark and keeps surge rings small and under the pickups', () => {
    const c = { latitude: 52.52, longitude: 13.405 };
    const svg: string = renderMap({
      centre: c,
      city: 'Berlin',
      title: 'A & B <city>',
      drivers: [
        { id: 1, path: [c, { latitude: 52.53, longitude: 13.41 }] },
        { id: 2, path: [c] },
      ],
      rides: [
        { id: 'r1', code: 'ABC234', pickup: c, dropoff: { latitude: 52.51, longitude: 13.4 }, outcome: 'completed' },
        { id: 'r2', code: 'XYZ567', pickup: c, dropoff: c, outcome: 'expired', surge: 1.45 },
      ],
    });
    expect(svg.match(/<title>surge ×1\.45<\/title>/g)).toHaveLength(1);
    expect(svg).toContain('(1 rides, up to ×1.45)');
    expect(svg).toContain('Berlin, around 52.520° N 13.405° E');
    expect(svg).toContain('dashed: one ride, pickup to drop-off');
    const ring = /<circle [^>]*r="([\d.]+)"[^>]*><title>surge ×1\.45<\/title>/.exec(svg);
    expect(Number(ring![1])).toBeLessThan(15);
    expect(svg.indexOf('<title>surge ×1.45')).toBeLessThan(svg.indexOf('<title>pickup '));
    expect(svg.startsWith('<?xml')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(1);
    expect(svg).toContain('A &amp; B &lt;city&gt;');
    expect(svg).toContain('completed (1)');
    expect(svg).toContain('expired (1)');
    expect(svg).toContain('cancelled (0)');
    expect(svg).toContain('pickup ABC234 completed');
    expect(svg).toContain('drop-off XYZ567 expired');
  });
});

describe('simulator: a short run against the real service', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { NODE_ENV: 'development', OTP_DEV_FIXED_CODE: '123456', LOG_LEVEL: 'silent' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs up, books, bids, accepts, completes and cancels rides without a contract violation', async () => {
    // The same city at four times the pace (pauses, think times and drives scaled; the service's deadlines not).
    const result = await runSimulation({
      bases: [t.baseUrl],
      passengers: 4,
      drivers: 3,
      minutes: 0.1,
      pace: 0.25,
      heartbeatMs: 1000,
      seed: 7,
      progress: false,
      ttlMinutes: 10,
    });
    expect(result.violations).toEqual([]);
    expect(result.users).toMatchObject({ passengers: 4, drivers: 3 });
    expect(result.counters.requested).toBeGreaterThan(0);
    expect(result.counters.bids).toBeGreaterThan(0);
    expect(result.counters.scheduled).toBeGreaterThan(0);
    expect(result.counters.accepted + result.counters.cancelled).toBeGreaterThan(0);
    expect(result.events.map((e: { key: string }) => e.key)).toEqual(expect.arrayContaining(['ride_requested', 'bid_submitted']));
    // Timed from the request's send, an event cannot read 0: it arrives after its request left.
    for (const e of result.events as Array<{ key: string; p50: number }>) expect([e.key, e.p50 > 0]).toEqual([e.key, true]);
    // Every ride that reached the pickup had its driver and passenger exchange a message, each delivered.
    expect(result.counters.messages).toBeGreaterThanOrEqual(2 * result.counters.completed);
    if (result.counters.completed > 0) expect(result.events.map((e: { key: string }) => e.key)).toContain('chat_message');
    expect(result.map.drivers.every((d: { path: unknown[] }) => d.path.length > 1)).toBe(true);
  }, 120_000);

  it('reports what the service refused: a wrong OTP is an unexpected 400 and fails the run', async () => {
    const result = await runSimulation({ bases: [t.baseUrl], passengers: 1, drivers: 0, minutes: 0.01, seed: 1, otp: '000000', progress: false });
    expect(result.users.passengers).toBe(0);
    expect(result.violations).toEqual([
      expect.objectContaining({ kind: 'unexpected-status', message: expect.stringContaining('POST /auth/verify-otp (passenger #0) → 400') }),
    ]);
  }, 60_000);
});
