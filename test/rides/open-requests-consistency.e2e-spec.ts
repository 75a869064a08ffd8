import { OpenRequestsIndex } from '../../src/modules/rides/read-models/open-requests/open-requests.index';
import { closeSentinels, eventsCrossed } from '../realtime/live-client';
import { createUser, TestUser } from '../support/factories';
import { twoInstancesOverOwnRedis, twoInstancesOverRedis } from '../support/instances';
import { describeWithRedis, describeWithRedisServer } from '../support/redis';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { RideDispatchJob } from '../../src/modules/rides/jobs/ride-dispatch.job';
import { accept, bookRide, cancel, Json, onlineDriver, placeBid } from './ride-helpers';
import { bookLater, makeDue, minutesAhead } from './ride-later-helpers';

/** A pickup of its own per test, so other tests' rides stay out of its nearby page. */
function area(latitude: number) {
  return { address: `Consistency ${latitude}`, latitude, longitude: 7.5 };
}

async function nearbyIds(t: TestApp, driver: TestUser, latitude: number): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: `/api/v1/driver/rides/nearby?latitude=${latitude}&longitude=7.5&radius_km=5`, token: driver.accessToken });
  expect(res.statusCode).toBe(200);
  return (res.json() as Json[]).map((r) => r.id as string);
}

/**
 * Every instance holds the open requests in memory, fed by the ride events of every instance over
 * Redis: a booking shows in nearby on another instance as soon as its event arrives (no period,
 * no database read), an acceptance or cancellation takes it out as fast.
 */
describeWithRedis('open requests across instances (Redis)', () => {
  const apps = twoInstancesOverRedis({ OPEN_REQUESTS_RECONCILE_SECONDS: '3600' });
  afterAll(() => closeSentinels([apps().first, apps().second]));

  it('a ride booked on one instance is in nearby on the other once its event crossed; accepted or cancelled, it leaves as fast', async () => {
    const { first, second } = apps();
    await waitFor('both indexes loaded', () => first.get(OpenRequestsIndex).ready && second.get(OpenRequestsIndex).ready);
    const driver = await onlineDriver(second);
    const passenger = await createUser(first);
    const ride = await bookRide(first, passenger, { pickup: area(30.1) });
    await eventsCrossed([first, second]);
    expect(await nearbyIds(second, driver, 30.1)).toEqual([ride.id]);

    const bid = await placeBid(second, driver, ride.id);
    expect((await accept(first, passenger, ride.id, bid.id)).statusCode).toBe(200);
    await eventsCrossed([first, second]);
    expect(await nearbyIds(second, driver, 30.1)).toEqual([]);

    const other = await createUser(first);
    const cancelled = await bookRide(first, other, { pickup: area(30.2) });
    await eventsCrossed([first, second]);
    expect(await nearbyIds(second, driver, 30.2)).toEqual([cancelled.id]);
    expect((await cancel(first, other, cancelled.id)).statusCode).toBe(200);
    await eventsCrossed([first, second]);
    expect(await nearbyIds(second, driver, 30.2)).toEqual([]);
  });
});

/** What other commands change while a ride is open reaches every instance's nearby the same way. */
describeWithRedis('open requests across instances: raised offers and rides booked for later (Redis)', () => {
  const apps = twoInstancesOverRedis({ OPEN_REQUESTS_RECONCILE_SECONDS: '3600', RIDE_DISPATCH_SWEEP_SECONDS: '3600' });
  afterAll(() => closeSentinels([apps().first, apps().second]));

  const page = async (t: TestApp, driver: TestUser, latitude: number) => {
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/driver/rides/nearby?latitude=${latitude}&longitude=7.5&radius_km=5`,
      token: driver.accessToken,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as Array<{ id: string; offered_fare: number | null; status: string }>;
  };

  it('a raised offer shows on the other instance once its event crossed', async () => {
    const { first, second } = apps();
    await waitFor('both indexes loaded', () => first.get(OpenRequestsIndex).ready && second.get(OpenRequestsIndex).ready);
    const driver = await onlineDriver(second);
    const passenger = await createUser(first);
    const ride = await bookRide(first, passenger, { pickup: area(33.1) });
    const raised = await first.request({ method: 'PUT', url: `/api/v1/rides/${ride.id}/offer`, token: passenger.accessToken, payload: { offered_fare: 9999 } });
    expect(raised.statusCode).toBe(200);
    await eventsCrossed([first, second]);
    expect((await page(second, driver, 33.1)).map((r) => [r.id, r.offered_fare])).toEqual([[ride.id, 9999]]);
  });

  it('a ride booked for later is not listed until it is dispatched, then it is, on every instance', async () => {
    const { first, second } = apps();
    const driver = await onlineDriver(second);
    const passenger = await createUser(first);
    const booked = await bookLater(first, passenger, minutesAhead(90), { pickup: area(33.2) });
    expect(booked.statusCode).toBe(201);
    const later = booked.json() as { id: string };
    const pickup = 33.2;
    await eventsCrossed([first, second]);
    expect((await page(second, driver, pickup)).map((r) => r.id)).not.toContain(later.id);
    await makeDue(first, [later.id]);
    expect(await first.get(RideDispatchJob).sweep()).toBeGreaterThanOrEqual(1);
    await eventsCrossed([first, second]);
    expect((await page(second, driver, pickup)).filter((r) => r.id === later.id).map((r) => r.status)).toEqual(['requested']);
  });
});

/** Pub/sub is at-most-once: what an instance missed while its bus was down, it reads back when the bus returns. */
describeWithRedisServer('open requests after the bus connection dropped', () => {
  // No periodic reconciliation within the test: only the reconnection can bring the instance back in step.
  const apps = twoInstancesOverOwnRedis({ OPEN_REQUESTS_RECONCILE_SECONDS: '3600' });

  it('catches up from the database when it reconnects: rides booked meanwhile appear, rides cancelled meanwhile go', async () => {
    const { first, second, stopRedis, restartRedis } = apps();
    await waitFor('both indexes loaded', () => first.get(OpenRequestsIndex).ready && second.get(OpenRequestsIndex).ready);
    const driver = await onlineDriver(second);
    const leaving = await createUser(first);
    const before = await bookRide(first, leaving, { pickup: area(31.1) });
    await waitFor('the booking crossed', async () => (await nearbyIds(second, driver, 31.1)).includes(before.id));

    await stopRedis();
    const during = await bookRide(first, await createUser(first), { pickup: area(31.1) });
    expect((await cancel(first, leaving, before.id)).statusCode).toBe(200);
    expect(await nearbyIds(first, driver, 31.1)).toEqual([during.id]);
    // The other instance heard of neither.
    expect(await nearbyIds(second, driver, 31.1)).toEqual([before.id]);

    await restartRedis();
    await waitFor('the reconnected instance caught up', async () => (await nearbyIds(second, driver, 31.1)).join() === during.id, 20_000);
  });
});

/** A change no event announced (a hand edit, an event lost on the way) lasts at most one reconciliation period. */
describe('open requests: periodic reconciliation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { OPEN_REQUESTS_RECONCILE_SECONDS: '1' } });
  });
  afterAll(() => t.close());

  it('brings rides written behind the service’s back in, their edits, and their departure', async () => {
    await waitFor('the index loaded', () => t.get(OpenRequestsIndex).ready);
    const driver = await onlineDriver(t);
    const [{ id }] = await t.db.query(
      `INSERT INTO rides (id, ride_code, status, ride_type, vehicle_category_id, pickup_address, pickup_latitude, pickup_longitude,
                          dropoff_address, dropoff_latitude, dropoff_longitude, passenger_count, payment_method, estimate,
                          estimated_fare_minor, currency, expires_at)
       VALUES (gen_random_uuid(), 'HAND01', 'requested', 'one_way', 1, 'by hand', 32.1, 7.5, 'by hand', 32.11, 7.5, 1, 'cash', '{}', 1000, 'USD',
               now() + interval '1 hour')
       RETURNING id`,
    );
    await waitFor('the hand-written ride is listed', async () => (await nearbyIds(t, driver, 32.1)).includes(id as string));

    await t.db.query(`UPDATE rides SET pickup_address = 'edited by hand' WHERE id = $1`, [id]);
    await waitFor('the edit shows', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/driver/rides/nearby?latitude=32.1&longitude=7.5', token: driver.accessToken });
      return (res.json() as Array<{ pickup: { address: string } }>)[0]?.pickup.address === 'edited by hand';
    });

    await t.db.query(`UPDATE rides SET status = 'cancelled', cancelled_at = now() WHERE id = $1`, [id]);
    await waitFor('the ride left', async () => (await nearbyIds(t, driver, 32.1)).length === 0);
  });
});
