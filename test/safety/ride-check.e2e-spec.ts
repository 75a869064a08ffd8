import { LiveClient } from '../realtime/live-client';
import { acceptedRide, DROPOFF, PICKUP, setStatus } from '../rides/ride-helpers';
import type { TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/** About 1.1 km north of the pickup: far from both pickup and dropoff. */
const AWAY = { latitude: PICKUP.latitude + 0.01, longitude: PICKUP.longitude };
/** About 220 m further north: a new stop. */
const FURTHER = { latitude: AWAY.latitude + 0.002, longitude: AWAY.longitude };
/** About 50 m from AWAY: the same stop. */
const NUDGED = { latitude: AWAY.latitude + 0.00045, longitude: AWAY.longitude };

/**
 * The ride check (CONTRACT §14) with RIDE_CHECK_STOP_MINUTES at 0.01 (0.6 s): a started ride whose
 * driver stays within 100 m, away from pickup and dropoff, asks both parties once per stop; the
 * answers: OK (204) or not OK (an SOS, 201).
 */
describe('ride check', () => {
  let t: TestApp;
  const locate = (driver: TestUser, at: { latitude: number; longitude: number }) =>
    t.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: at });
  const answer = (user: TestUser, rideId: string, ok: unknown) =>
    t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/ride-check`, token: user.accessToken, payload: { ok } });

  beforeAll(async () => {
    t = await startTestApp({ env: { RIDE_CHECK_STOP_MINUTES: '0.01' } });
  });
  afterAll(() => t.close());

  async function startedRide() {
    const ride = await acceptedRide(t);
    await setStatus(t, ride.driver, ride.rideId, 'driver_arrived');
    await setStatus(t, ride.driver, ride.rideId, 'started');
    const live = { passenger: await LiveClient.connect(t, ride.passenger.accessToken), driver: await LiveClient.connect(t, ride.driver.accessToken) };
    return { ...ride, live };
  }

  it('a long stop away from pickup and dropoff asks the passenger and the driver, once per stop; a stop 100 m on is a new one', async () => {
    const { driver, rideId, live } = await startedRide();
    expect((await locate(driver, AWAY)).statusCode).toBe(200);
    for (const client of [live.passenger, live.driver]) {
      const check = await client.next('ride_check');
      expect(check).toMatchObject({ ride_id: rideId, data: { reason: 'long_stop' } });
    }
    // Still the same stop (within 100 m of where it began): not asked again; a stop farther on is.
    await locate(driver, NUDGED);
    await locate(driver, AWAY);
    await locate(driver, FURTHER);
    await live.passenger.next('ride_check');
    await live.driver.next('ride_check');
    await Promise.all([live.passenger.sync(), live.driver.sync()]);
    for (const client of [live.passenger, live.driver]) expect(client.received.filter((m) => m.type === 'ride_check')).toHaveLength(2);
    for (const client of Object.values(live)) await client.close();
  });

  it('no check at the pickup or the dropoff, nor before the ride has started', async () => {
    const atPickup = await startedRide();
    const atDropoff = await startedRide();
    const early = await acceptedRide(t);
    const earlyLive = await LiveClient.connect(t, early.passenger.accessToken);
    await locate(atPickup.driver, PICKUP);
    await locate(atDropoff.driver, { latitude: DROPOFF.latitude + 0.001, longitude: DROPOFF.longitude });
    await locate(early.driver, AWAY);
    // A ride whose stop began after theirs is asked: theirs had the time and were not.
    const witness = await startedRide();
    await locate(witness.driver, AWAY);
    await witness.live.passenger.next('ride_check');
    const quiet = [...Object.values(atPickup.live), ...Object.values(atDropoff.live), earlyLive];
    await Promise.all(quiet.map((c) => c.sync()));
    for (const client of quiet) expect(client.received.filter((m) => m.type === 'ride_check')).toHaveLength(0);
    for (const client of [...quiet, ...Object.values(witness.live)]) await client.close();
  });

  it('answers: ok → 204; not ok → an SOS (201 with it, 200 while it is open); anyone else 404; ok must be a boolean', async () => {
    const { driver, passenger, rideId, live } = await startedRide();
    const ok = await answer(driver, rideId, true);
    expect(ok.statusCode).toBe(204);
    expect(ok.body).toBe('');
    const bad = await answer(passenger, rideId, 'no');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('ok must be a boolean value');
    const notOk = await answer(passenger, rideId, false);
    expect(notOk.statusCode).toBe(201);
    expect(notOk.json()).toMatchObject({ ride_id: rideId, raised_by: 'passenger', status: 'open' });
    const [row] = await t.db.query(`SELECT source FROM sos_alerts WHERE id = $1`, [notOk.json().id]);
    expect(row.source).toBe('ride_check');
    const again = await answer(driver, rideId, false);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(notOk.json().id);
    const stranger = await acceptedRide(t);
    expect((await answer(stranger.passenger, rideId, true)).statusCode).toBe(404);
    expect((await answer(stranger.passenger, rideId, false)).statusCode).toBe(404);
    for (const client of Object.values(live)) await client.close();
  });
});
