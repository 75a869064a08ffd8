import { EventBus } from '../../src/common/events/event-bus';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { accept, acceptedRide, bookRide, cancel, onlineDriver, placeBid } from '../rides/ride-helpers';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { countRoundTrips } = require('../../bench/lib/round-trip-probe') as {
  countRoundTrips<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }>;
};

describe('bids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const bid = (token: string, rideId: string, payload: object) => t.request({ method: 'POST', url: `/api/v1/driver/rides/${rideId}/bid`, token, payload });

  it('one live bid per driver per ride: bidding again replaces amount and ETA; bid.submitted is published', async () => {
    const passenger = await createUser(t);
    const driver = await onlineDriver(t);
    const ride = await bookRide(t, passenger);
    const seen: Array<{ bid: { amount: number } }> = [];
    const off = t.get(EventBus).subscribe('bid.submitted', (e) => void seen.push(e as never));
    const first = await placeBid(t, driver, ride.id, 11);
    const second = await placeBid(t, driver, ride.id, 9.5);
    await new Promise((r) => setImmediate(r));
    off();
    expect(second).toMatchObject({ id: first.id, amount: 9.5, status: 'pending', currency: 'USD' });
    expect(seen.map((e) => e.bid.amount)).toEqual([11, 9.5]);
    expect(seen[0]).toMatchObject({ ride_id: ride.id, passenger_id: passenger.id, driver_id: driver.id });
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM bids WHERE ride_id = $1`, [ride.id]);
    expect(n).toBe(1);
  });

  it('lists bids cheapest first with the driver profile, vehicle, rating, ETA and distance', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    const a = await onlineDriver(t);
    const b = await onlineDriver(t);
    await placeBid(t, a, ride.id, 14);
    await placeBid(t, b, ride.id, 12);
    const res = await t.request({ method: 'GET', url: `/api/v1/rides/${ride.id}/bids`, token: passenger.accessToken });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((x: { amount: number }) => x.amount)).toEqual([12, 14]);
    expect(list[0]).toMatchObject({
      ride_id: ride.id,
      eta_minutes: 3,
      status: 'pending',
      driver: { id: b.id, first_name: 'Dana', rating: null, vehicle: { make: 'Toyota', model: 'Corolla', color: 'White', year: 2021, category_id: 1 } },
    });
    expect(list[0].distance_km).toBeCloseTo(0.11, 1);
    // The passenger's active ride carries the same pending bids.
    const active = (await t.request({ method: 'GET', url: '/api/v1/passenger/rides/active', token: passenger.accessToken })).json();
    expect(active.bids).toEqual(list);
  });

  it('refuses bids that break the rules', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    const comfort = await onlineDriver(t, { vehicleCategoryId: 2 });
    const wrongCategory = await bid(comfort.accessToken, ride.id, { amount: 10, eta_minutes: 2 });
    expect(wrongCategory.statusCode).toBe(403);

    const anyCategory = await onlineDriver(t, { vehicleCategoryId: null });
    expect((await bid(anyCategory.accessToken, ride.id, { amount: 10, eta_minutes: 2 })).statusCode).toBe(201);

    const busy = await onlineDriver(t);
    await acceptedRide(t, { driver: busy });
    const busyBid = await bid(busy.accessToken, ride.id, { amount: 10, eta_minutes: 2 });
    expect(busyBid.statusCode).toBe(409);
    expect(busyBid.json().message).toBe('Driver already has a ride in progress');

    const driver = await onlineDriver(t);
    for (const body of [
      { amount: 0, eta_minutes: 2 },
      { amount: 1.234, eta_minutes: 2 },
      { amount: 5 },
      { amount: '5', eta_minutes: 1 },
      { amount: 5, eta_minutes: -1 },
    ]) {
      expect((await bid(driver.accessToken, ride.id, body)).statusCode).toBe(400);
    }
    expect((await bid(driver.accessToken, '00000000-0000-4000-8000-000000000000', { amount: 5, eta_minutes: 1 })).statusCode).toBe(404);
    expect((await bid(driver.accessToken, 'nope', { amount: 5, eta_minutes: 1 })).statusCode).toBe(404);

    await cancel(t, passenger, ride.id);
    const late = await bid(driver.accessToken, ride.id, { amount: 5, eta_minutes: 1 });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('Ride is no longer open for bids');
  });

  it('acceptance rejects the other bids, withdraws the winner’s other bids, and cannot be repeated', async () => {
    const p1 = await createUser(t);
    const p2 = await createUser(t);
    const r1 = await bookRide(t, p1);
    const r2 = await bookRide(t, p2);
    const winner = await onlineDriver(t);
    const loser = await onlineDriver(t);
    const wb = await placeBid(t, winner, r1.id, 10);
    const lb = await placeBid(t, loser, r1.id, 11);
    const elsewhere = await placeBid(t, winner, r2.id, 10);

    const seen: unknown[] = [];
    const off = t.get(EventBus).subscribe('ride.accepted', (e) => void seen.push(e));
    expect((await accept(t, p1, r1.id, wb.id)).statusCode).toBe(200);
    await new Promise((r) => setImmediate(r));
    off();
    expect(seen).toEqual([expect.objectContaining({ ride_id: r1.id, passenger_id: p1.id, driver_id: winner.id, rejected_driver_ids: [loser.id] })]);

    const statuses = Object.fromEntries(
      (await t.db.query(`SELECT id, status FROM bids WHERE id = ANY($1::uuid[])`, [[wb.id, lb.id, elsewhere.id]])).map((r: { id: string; status: string }) => [
        r.id,
        r.status,
      ]),
    );
    expect(statuses).toEqual({ [wb.id]: 'accepted', [lb.id]: 'rejected', [elsewhere.id]: 'withdrawn' });
    expect((await accept(t, p1, r1.id, wb.id)).statusCode).toBe(409);
    expect((await accept(t, p1, r1.id, lb.id)).statusCode).toBe(409);
    expect((await accept(t, p2, r2.id, elsewhere.id)).statusCode).toBe(409);
    expect((await accept(t, p1, r1.id, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('at steady state an accept is two statements, cash or wallet (issue 27): the unlocked read prepare makes, then the one statement', async () => {
    for (const payment of ['cash', 'wallet'] as const) {
      const passenger = await createUser(t, { walletBalanceMinor: 5000 });
      const ride = await bookRide(t, passenger, { payment_method: payment });
      const winner = await onlineDriver(t);
      const loser = await onlineDriver(t);
      const wb = await placeBid(t, winner, ride.id, 10);
      const lb = await placeBid(t, loser, ride.id, 11);
      // Awaited inside: light-my-request starts the request when it is first awaited.
      const { result, statements } = await countRoundTrips(async () => await accept(t, passenger, ride.id, wb.id));
      expect(result.statusCode).toBe(200);
      expect(result.json()).toMatchObject({ status: 'accepted', driver: { id: winner.id }, fare: 10 });
      expect(statements).toHaveLength(2);
      const bids = await t.db.query(`SELECT id, status FROM bids WHERE ride_id = $1 ORDER BY amount_minor`, [ride.id]);
      expect(bids).toEqual([
        { id: wb.id, status: 'accepted' },
        { id: lb.id, status: 'rejected' },
      ]);
      const [events] = await t.db.query(`SELECT count(*)::int AS n FROM ride_events WHERE ride_id = $1 AND to_status = 'accepted'`, [ride.id]);
      expect(events.n).toBe(1);
    }
  });

  it('refuses off the steady state as before, nothing changed: a wallet short of the bid, a driver no longer approved, a bid no longer pending', async () => {
    const poor = await createUser(t, { walletBalanceMinor: 500 });
    const walletRide = await bookRide(t, poor, { payment_method: 'wallet' });
    const costly = await placeBid(t, await onlineDriver(t), walletRide.id, 10);
    const short = await accept(t, poor, walletRide.id, costly.id);
    expect(short.statusCode).toBe(409);
    expect(short.json().message).toBe('Wallet balance does not cover the fare');

    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    const suspended = await onlineDriver(t);
    const bid = await placeBid(t, suspended, ride.id, 10);
    await t.db.query(`UPDATE drivers SET status = 'suspended' WHERE user_id = $1`, [suspended.id]);
    const gone = await accept(t, passenger, ride.id, bid.id);
    expect(gone.statusCode).toBe(409);
    expect(gone.json().message).toBe('Driver is no longer available');
    await t.db.query(`UPDATE bids SET status = 'withdrawn' WHERE id = $1`, [bid.id]);
    expect((await accept(t, passenger, ride.id, bid.id)).json().message).toBe('Bid is no longer pending');

    const [row] = await t.db.query(`SELECT status, driver_id FROM rides WHERE id = $1`, [walletRide.id]);
    expect(row).toEqual({ status: 'requested', driver_id: null });
    const [pending] = await t.db.query(`SELECT status FROM bids WHERE id = $1`, [costly.id]);
    expect(pending.status).toBe('pending');
  });

  /**
   * A bid in flight (the ride held as the bid statement holds it, the bid written, not yet committed)
   * while `act` runs: `act` must wait for it, and once it commits, the late bid's status is answered.
   */
  async function withBidInFlight(rideId: string, driverId: number, act: () => Promise<{ statusCode: number }>): Promise<{ statusCode: number; late: string }> {
    const runner = t.db.createQueryRunner();
    await runner.connect();
    let answer: Promise<{ statusCode: number }> | undefined;
    try {
      await runner.startTransaction();
      await runner.query(`SELECT id FROM rides WHERE id = $1 FOR SHARE`, [rideId]);
      const [{ id: lateBid }] = await runner.query(
        `INSERT INTO bids (id, ride_id, driver_id, amount_minor, eta_minutes) VALUES (gen_random_uuid(), $1, $2, 1200, 3) RETURNING id`,
        [rideId, driverId],
      );
      answer = act();
      const waiting = async () =>
        (await t.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))[0].n > 0;
      await until(waiting, 'the command to wait for the ride');
      await runner.commitTransaction();
      const { statusCode } = await answer;
      const [settled] = await t.db.query(`SELECT status FROM bids WHERE id = $1`, [lateBid]);
      return { statusCode, late: settled.status as string };
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
      await answer?.catch(() => undefined);
    }
  }

  it('an accept finding the ride held (a bid being placed) waits for it in the run form, and settles the bid placed meanwhile too', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    const winner = await onlineDriver(t);
    const late = await onlineDriver(t);
    const wb = await placeBid(t, winner, ride.id, 10);
    expect(await withBidInFlight(ride.id, late.id, () => accept(t, passenger, ride.id, wb.id))).toEqual({ statusCode: 200, late: 'rejected' });
  });

  it('a cash cancel finding the ride held (a bid being placed) waits for it in the run form, and withdraws the bid placed meanwhile too', async () => {
    const passenger = await createUser(t);
    const ride = await bookRide(t, passenger);
    const late = await onlineDriver(t);
    expect(await withBidInFlight(ride.id, late.id, () => cancel(t, passenger, ride.id))).toEqual({ statusCode: 200, late: 'withdrawn' });
  });
});
