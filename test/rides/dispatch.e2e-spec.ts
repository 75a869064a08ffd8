import { EventBus } from '../../src/common/events/event-bus';
import { NearbyDriversPort } from '../../src/modules/realtime/ports/nearby-drivers.port';
import { RideDispatchJob } from '../../src/modules/rides/jobs/ride-dispatch.job';
import { RideExpiryJob } from '../../src/modules/rides/jobs/ride-expiry.job';
import { expectNothingMore, LiveClient } from '../realtime/live-client';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { makeDue, minutesAhead, scheduledList, scheduledRide } from './ride-later-helpers';
import { accept, bookingBody, bookRide, PICKUP, placeBid } from './ride-helpers';

/** CONTRACT §11 "Ride later": the dispatcher makes a scheduled ride requested, matched like a new one. */
describe('ride later: the dispatcher', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { RIDE_DISPATCH_SWEEP_SECONDS: '1', RIDE_EXPIRY_SWEEP_SECONDS: '3600', LOCATION_FLUSH_MS: '50', DISPATCH_LEAD_MINUTES: '30' },
    });
  });
  afterAll(() => t.close());

  /** An approved driver online at the pickup, matchable (its heartbeat in the live store). */
  async function matchableDriver(): Promise<TestUser> {
    const driver = await createUser(t, { role: 'driver', vehicleCategoryId: 1 });
    await t.request({ method: 'PUT', url: '/api/v1/driver/status', token: driver.accessToken, payload: { is_online: true } });
    await t.request({
      method: 'PUT',
      url: '/api/v1/driver/location',
      token: driver.accessToken,
      payload: { latitude: PICKUP.latitude, longitude: PICKUP.longitude },
    });
    const port = t.get(NearbyDriversPort);
    await waitFor('the driver matchable', async () => (await port.findOnlineDriverIdsNear(1, PICKUP, t.config.matchingRadiusKm)).includes(driver.id));
    return driver;
  }

  it('dispatches a due ride on its own: ride_status_changed to the passenger, ride_requested to drivers, then it is a request', async () => {
    const passenger = await createUser(t);
    const driver = await matchableDriver();
    const ride = await scheduledRide(t, passenger, minutesAhead(120));
    const [passengerLive, driverLive] = [await LiveClient.connect(t, passenger.accessToken), await LiveClient.connect(t, driver.accessToken)];
    await makeDue(t, [ride.id]);
    const changed = await passengerLive.next('ride_status_changed', 5000);
    expect(changed.ride_id).toBe(ride.id);
    expect(changed.data!.ride).toMatchObject({ id: ride.id, status: 'requested', pickup_at: ride.pickup_at });
    const requested = await driverLive.next('ride_requested', 5000);
    expect(requested.data!.ride).toMatchObject({ id: ride.id, status: 'requested' });
    await expectNothingMore([passengerLive, driverLive]);

    // Now the passenger's active ride, out of the scheduled list, open to bids and acceptance.
    const active = await t.request({ method: 'GET', url: '/api/v1/passenger/rides/active', token: passenger.accessToken });
    expect(active.json().ride).toMatchObject({ id: ride.id, status: 'requested' });
    expect((await scheduledList(t, passenger)).total).toBe(0);
    const bid = await placeBid(t, driver, ride.id, 12);
    expect((await accept(t, passenger, ride.id, bid.id)).statusCode).toBe(200);
    const [event] = await t.db.query(
      `SELECT from_status, to_status, actor_role, actor_user_id FROM ride_events WHERE ride_id = $1 AND to_status = 'requested'`,
      [ride.id],
    );
    expect(event).toEqual({ from_status: 'scheduled', to_status: 'requested', actor_role: 'system', actor_user_id: null });
    await Promise.all([passengerLive.close(), driverLive.close()]);
  });

  it('counts expiry from the dispatch, not from the booking, and never expires a ride still scheduled', async () => {
    const passenger = await createUser(t);
    const ride = await scheduledRide(t, passenger, minutesAhead(60));
    await t.db.query(`UPDATE rides SET expires_at = now() - interval '1 hour' WHERE id = $1`, [ride.id]);
    await t.get(RideExpiryJob).sweep();
    expect((await t.db.query(`SELECT status FROM rides WHERE id = $1`, [ride.id]))[0].status).toBe('scheduled');
    await makeDue(t, [ride.id]);
    const dispatchedAt = Date.now();
    await t.get(RideDispatchJob).sweep();
    const [row] = await t.db.query(`SELECT status, expires_at FROM rides WHERE id = $1`, [ride.id]);
    expect(row.status).toBe('requested');
    const ttlMs = t.config.rideRequestTtlMinutes * 60_000;
    expect(row.expires_at.getTime()).toBeGreaterThanOrEqual(dispatchedAt + ttlMs - 2000);
    expect(row.expires_at.getTime()).toBeLessThanOrEqual(Date.now() + ttlMs + 2000);
    await t.get(RideExpiryJob).sweep();
    expect((await t.db.query(`SELECT status FROM rides WHERE id = $1`, [ride.id]))[0].status).toBe('requested');
  });

  it('dispatches DISPATCH_LEAD_MINUTES (here 30) before pickup_at, not earlier', async () => {
    const passenger = await createUser(t);
    const inside = await scheduledRide(t, passenger, minutesAhead(29));
    const outside = await scheduledRide(t, passenger, minutesAhead(31));
    const statusOf = async (id: string): Promise<string> => (await t.db.query(`SELECT status FROM rides WHERE id = $1`, [id]))[0].status;
    await waitFor('the ride inside the lead dispatched', async () => (await statusOf(inside.id)) === 'requested', 5000);
    await t.get(RideDispatchJob).sweep();
    expect(await statusOf(outside.id)).toBe('scheduled');
    const [row] = await t.db.query(`SELECT dispatch_at, pickup_at FROM rides WHERE id = $1`, [outside.id]);
    expect(row.pickup_at.getTime() - row.dispatch_at.getTime()).toBe(30 * 60_000);
  });

  it('leaves a ride that is not due yet scheduled', async () => {
    const ride = await scheduledRide(t, await createUser(t), minutesAhead(60));
    await t.get(RideDispatchJob).sweep();
    expect((await t.db.query(`SELECT status FROM rides WHERE id = $1`, [ride.id]))[0].status).toBe('scheduled');
  });

  it('dispatches a scheduled ride at its time even while the passenger has another live ride', async () => {
    const passenger = await createUser(t);
    const scheduled = await scheduledRide(t, passenger, minutesAhead(60));
    const now = await bookRide(t, passenger);
    await makeDue(t, [scheduled.id]);
    await t.get(RideDispatchJob).sweep();
    const rows = await t.db.query(`SELECT id, status FROM rides WHERE passenger_id = $1 ORDER BY created_at`, [passenger.id]);
    expect(rows).toEqual([
      { id: scheduled.id, status: 'requested' },
      { id: now.id, status: 'requested' },
    ]);
    // Still at most one live ride by booking.
    const third = await t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload: bookingBody() });
    expect(third.statusCode).toBe(409);
  });

  it('moves a due ride once however often the dispatcher runs: one status change, one event', async () => {
    const passenger = await createUser(t);
    const ride = await scheduledRide(t, passenger, minutesAhead(60));
    const live = await LiveClient.connect(t, passenger.accessToken);
    const seen: string[] = [];
    const off = t.get(EventBus).subscribe('ride.dispatched', (e) => void seen.push(e.ride_id));
    await makeDue(t, [ride.id]);
    const job = t.get(RideDispatchJob);
    await Promise.all([job.sweep(), job.sweep(), job.sweep()]);
    await live.next('ride_status_changed');
    // The 1 s timer may have run meanwhile too: wait for it, then count.
    await (job as unknown as { running?: Promise<number> }).running?.catch(() => undefined);
    await job.sweep();
    off();
    expect(seen.filter((id) => id === ride.id)).toHaveLength(1);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM ride_events WHERE ride_id = $1 AND to_status = 'requested'`, [ride.id]);
    expect(n).toBe(1);
    await expectNothingMore([live]);
    await live.close();
  });
});
