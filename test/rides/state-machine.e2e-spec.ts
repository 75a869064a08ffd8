import { RideExpiryJob } from '../../src/modules/rides/jobs/ride-expiry.job';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { acceptedRide, bookRide, cancel, onlineDriver, placeBid, setStatus } from './ride-helpers';

const STATUSES = ['requested', 'accepted', 'driver_arrived', 'started', 'completed', 'cancelled', 'expired'] as const;
type Status = (typeof STATUSES)[number];
const NEXT: Partial<Record<Status, Status>> = { accepted: 'driver_arrived', driver_arrived: 'started', started: 'completed' };
const PASSENGER_CANCELS: Status[] = ['requested', 'accepted', 'driver_arrived'];
const DRIVER_CANCELS: Status[] = ['accepted', 'driver_arrived'];

describe('ride state machine', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** A ride in `status`; `driver` is the assigned driver, or for requested/expired/cancelled-before-accept a bidder. */
  async function rideIn(status: Status): Promise<{ rideId: string; passenger: TestUser; driver: TestUser }> {
    if (status === 'requested' || status === 'expired' || status === 'cancelled') {
      const passenger = await createUser(t);
      const driver = await onlineDriver(t);
      const ride = await bookRide(t, passenger);
      await placeBid(t, driver, ride.id);
      if (status === 'expired') {
        await t.db.query(`UPDATE rides SET expires_at = now() - interval '1 second' WHERE id = $1`, [ride.id]);
        await t.get(RideExpiryJob).sweep();
      }
      if (status === 'cancelled') expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
      return { rideId: ride.id, passenger, driver };
    }
    const ride = await acceptedRide(t);
    for (const step of ['driver_arrived', 'started', 'completed'] as const) {
      if (status === 'accepted' || STATUSES.indexOf(step) > STATUSES.indexOf(status)) break;
      expect((await setStatus(t, ride.driver, ride.rideId, step)).statusCode).toBe(200);
    }
    return ride;
  }

  const table = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));

  it.each(table)('PUT status %s → %s: assigned driver allowed only one step forward, else 409', async (from, to) => {
    const { rideId, passenger, driver } = await rideIn(from);
    const current = await t.request({ method: 'GET', url: `/api/v1/rides/${rideId}`, token: passenger.accessToken });
    expect(current.json().status).toBe(from);

    // The passenger is not a driver: 403. Another driver does not see the ride: 404.
    expect((await setStatus(t, passenger, rideId, to)).statusCode).toBe(403);
    expect((await setStatus(t, await onlineDriver(t), rideId, to)).statusCode).toBe(404);

    const res = await setStatus(t, driver, rideId, to);
    const assigned = !['requested', 'expired'].includes(from) && !(from === 'cancelled');
    if (!assigned) {
      // A bidder is not the assigned driver.
      expect(res.statusCode).toBe(404);
    } else if (NEXT[from] === to) {
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe(to);
    } else {
      expect(res.statusCode).toBe(409);
      const after = await t.request({ method: 'GET', url: `/api/v1/rides/${rideId}`, token: passenger.accessToken });
      expect(after.json().status).toBe(from);
    }
  });

  it.each(STATUSES.map((s) => [s]))('cancel from %s by passenger and by the assigned driver', async (from) => {
    const byPassenger = await rideIn(from);
    const res = await cancel(t, byPassenger.passenger, byPassenger.rideId, 'changed plans');
    if (PASSENGER_CANCELS.includes(from)) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'cancelled', cancelled_by: 'passenger', cancel_reason: 'changed plans' });
    } else {
      expect(res.statusCode).toBe(409);
    }

    const byDriver = await rideIn(from);
    const assigned = ['accepted', 'driver_arrived', 'started', 'completed'].includes(from);
    const dres = await cancel(t, byDriver.driver, byDriver.rideId);
    if (DRIVER_CANCELS.includes(from)) {
      expect(dres.statusCode).toBe(200);
      expect(dres.json()).toMatchObject({ status: 'cancelled', cancelled_by: 'driver', cancel_reason: null });
    } else {
      expect(dres.statusCode).toBe(assigned ? 409 : 404);
    }
  });

  it('records every transition with who and when', async () => {
    const { rideId, passenger, driver } = await acceptedRide(t);
    await setStatus(t, driver, rideId, 'driver_arrived');
    await cancel(t, passenger, rideId, 'too slow');
    const events = await t.db.query(
      `SELECT from_status, to_status, actor_user_id, actor_role, reason, created_at FROM ride_events WHERE ride_id = $1 ORDER BY id`,
      [rideId],
    );
    expect(events.map((e: Record<string, unknown>) => [e.from_status, e.to_status, e.actor_user_id, e.actor_role, e.reason])).toEqual([
      [null, 'requested', passenger.id, 'passenger', null],
      ['requested', 'accepted', passenger.id, 'passenger', null],
      ['accepted', 'driver_arrived', driver.id, 'driver', null],
      ['driver_arrived', 'cancelled', passenger.id, 'passenger', 'too slow'],
    ]);
    expect(events.every((e: { created_at: unknown }) => e.created_at instanceof Date)).toBe(true);
  });

  it('cancel and expiry withdraw live bids; expiry is recorded as the system', async () => {
    const passenger = await createUser(t);
    const d1 = await onlineDriver(t);
    const d2 = await onlineDriver(t);
    const ride = await bookRide(t, passenger);
    await placeBid(t, d1, ride.id, 9);
    await placeBid(t, d2, ride.id, 8);
    await t.db.query(`UPDATE rides SET expires_at = now() - interval '1 second' WHERE id = $1`, [ride.id]);
    expect(await t.get(RideExpiryJob).sweep()).toBe(1);
    const bids = await t.db.query(`SELECT status FROM bids WHERE ride_id = $1`, [ride.id]);
    expect(bids.map((b: { status: string }) => b.status)).toEqual(['withdrawn', 'withdrawn']);
    const [event] = await t.db.query(`SELECT actor_role, to_status FROM ride_events WHERE ride_id = $1 ORDER BY id DESC LIMIT 1`, [ride.id]);
    expect(event).toEqual({ actor_role: 'system', to_status: 'expired' });
    // The passenger may book again.
    await bookRide(t, passenger);
  });
});
