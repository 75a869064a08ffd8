import { EventBus } from '../../src/common/events/event-bus';
import { RideExpiryJob } from '../../src/modules/rides/jobs/ride-expiry.job';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { bookRide, onlineDriver, placeBid } from './ride-helpers';

describe('ride expiry', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ env: { RIDE_EXPIRY_SWEEP_SECONDS: '1' } });
    b = await startTestApp({ databaseUrl: a.databaseUrl, env: { RIDE_EXPIRY_SWEEP_SECONDS: '3600' } });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('the scheduled sweep expires requested rides past their time and announces it', async () => {
    const passenger = await createUser(a);
    const driver = await onlineDriver(a);
    const ride = await bookRide(a, passenger);
    await placeBid(a, driver, ride.id);
    const seen: Array<{ ride_id: string; bidder_driver_ids: number[]; ride: { status: string } }> = [];
    const off = a.get(EventBus).subscribe('ride.expired', (e) => void seen.push(e as never));
    await a.db.query(`UPDATE rides SET expires_at = now() - interval '1 second' WHERE id = $1`, [ride.id]);
    await waitFor('the scheduled sweep (every second here)', () => seen.length > 0, 4000);
    off();
    expect(seen).toEqual([expect.objectContaining({ ride_id: ride.id, passenger_id: passenger.id, bidder_driver_ids: [driver.id] })]);
    expect(seen[0]!.ride.status).toBe('expired');
  });

  it('two instances sweeping at once expire each ride exactly once (SKIP LOCKED)', async () => {
    const rides = [];
    for (let i = 0; i < 30; i += 1) rides.push(await bookRide(a, await createUser(a)));
    const ids = rides.map((r) => r.id);
    await a.db.query(`UPDATE rides SET expires_at = now() - interval '1 second' WHERE id = ANY($1::uuid[])`, [ids]);
    const [x, y] = await Promise.all([a.get(RideExpiryJob).sweep(), b.get(RideExpiryJob).sweep()]);
    expect(x + y).toBeLessThanOrEqual(30);
    // Instance a's own 1 s timer may be a third sweeper holding some rows (the explicit sweeps skip
    // them): wait until every ride is expired, then check each was expired exactly once.
    const expiredEvents = async (): Promise<number> =>
      (await a.db.query(`SELECT count(*)::int AS n FROM ride_events WHERE to_status = 'expired' AND ride_id = ANY($1::uuid[])`, [ids]))[0].n;
    await waitFor('every ride expired', async () => (await expiredEvents()) >= 30, 5000);
    // Then the timer's sweep in flight, if any, ends (a later one finds nothing due): the count is final.
    await (a.get(RideExpiryJob) as unknown as { running?: Promise<number> }).running?.catch(() => undefined);
    expect(await expiredEvents()).toBe(30);
    const [{ left }] = await a.db.query(`SELECT count(*)::int AS left FROM rides WHERE status = 'requested' AND id = ANY($1::uuid[])`, [ids]);
    expect(left).toBe(0);
  });

  it('a ride past its time is closed to bids and acceptance before the sweep', async () => {
    const passenger = await createUser(b);
    const driver = await onlineDriver(b);
    const ride = await bookRide(b, passenger);
    const bid = await placeBid(b, driver, ride.id);
    await b.db.query(`UPDATE rides SET expires_at = now() - interval '1 second' WHERE id = $1`, [ride.id]);
    const res = await b.request({ method: 'POST', url: `/api/v1/rides/${ride.id}/bids/${bid.id}/accept`, token: passenger.accessToken });
    expect(res.statusCode).toBe(409);
    const late = await b.request({
      method: 'POST',
      url: `/api/v1/driver/rides/${ride.id}/bid`,
      token: driver.accessToken,
      payload: { amount: 3, eta_minutes: 1 },
    });
    expect(late.statusCode).toBe(409);
  });
});
