import { NearbyDriversPort } from '../../src/modules/realtime/ports/nearby-drivers.port';
import { bookRide, cancel, DROPOFF, PICKUP } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { expectNothingMore, LiveClient } from './live-client';

/**
 * CONTRACT §11: a raised offer is announced again as ride_requested, to the drivers the matcher would
 * tell about a new request at that moment (not to those told at booking).
 */
describe('live channel: a raised offer reaches the drivers matched now', () => {
  let t: TestApp;
  let passenger: TestUser;
  const drivers: Record<string, TestUser> = {};
  const live: Record<string, LiveClient> = {};
  const everyone = (): LiveClient[] => Object.values(live);

  async function setOnline(driver: TestUser, isOnline: boolean): Promise<void> {
    const res = await t.request({ method: 'PUT', url: '/api/v1/driver/status', token: driver.accessToken, payload: { is_online: isOnline } });
    expect(res.statusCode).toBe(200);
  }
  async function goOnlineAt(driver: TestUser, latitude: number, longitude: number): Promise<void> {
    await setOnline(driver, true);
    const res = await t.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: { latitude, longitude } });
    expect(res.statusCode).toBe(200);
  }
  const matched = async () => [...(await t.get(NearbyDriversPort).findOnlineDriverIdsNear(1, PICKUP, t.config.matchingRadiusKm))].sort().join();
  const ids = (...names: string[]) =>
    names
      .map((n) => drivers[n]!.id)
      .sort()
      .join();

  beforeAll(async () => {
    t = await startTestApp({ env: { LOCATION_FLUSH_MS: '50' } });
    passenger = await createUser(t);
    for (const name of ['stays', 'leaves', 'arrives', 'far']) drivers[name] = await createUser(t, { role: 'driver', vehicleCategoryId: 1 });
    drivers.wrongCategory = await createUser(t, { role: 'driver', vehicleCategoryId: 3 });
    await goOnlineAt(drivers.stays!, PICKUP.latitude + 0.002, PICKUP.longitude);
    await goOnlineAt(drivers.leaves!, PICKUP.latitude, PICKUP.longitude + 0.002);
    await goOnlineAt(drivers.far!, DROPOFF.latitude + 1, DROPOFF.longitude);
    await goOnlineAt(drivers.wrongCategory!, PICKUP.latitude, PICKUP.longitude);
    await waitFor('the drivers matchable at booking', async () => (await matched()) === ids('stays', 'leaves'));
    live.passenger = await LiveClient.connect(t, passenger.accessToken);
    for (const [name, driver] of Object.entries(drivers)) live[name] = await LiveClient.connect(t, driver.accessToken);
  });
  afterAll(async () => {
    await Promise.all(everyone().map((c) => c.close()));
    await t.close();
  });

  it('re-sends ride_requested with the new offer to the drivers near the pickup now', async () => {
    const ride = await bookRide(t, passenger, { offered_fare: 20 });
    for (const name of ['stays', 'leaves']) {
      expect(await live[name]!.next()).toMatchObject({ type: 'ride_requested', ride_id: ride.id, data: { ride: { offered_fare: 20 } } });
    }
    await expectNothingMore(everyone());

    // The market moves: one driver goes offline, another comes online near the pickup.
    await setOnline(drivers.leaves!, false);
    await goOnlineAt(drivers.arrives!, PICKUP.latitude - 0.002, PICKUP.longitude);
    await waitFor('the drivers matchable at the raise', async () => (await matched()) === ids('stays', 'arrives'));

    const res = await t.request({ method: 'PUT', url: `/api/v1/rides/${ride.id}/offer`, token: passenger.accessToken, payload: { offered_fare: 24.5 } });
    expect(res.statusCode).toBe(200);
    for (const name of ['stays', 'arrives']) {
      expect(await live[name]!.next()).toEqual({
        type: 'ride_requested',
        ride_id: ride.id,
        data: { ride: expect.objectContaining({ id: ride.id, status: 'requested', offered_fare: 24.5 }) },
        at: expect.any(String),
      });
    }
    await expectNothingMore(everyone());
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
    expect((await live.passenger!.next()).type).toBe('ride_cancelled');
  });

  it('a refused raise announces nothing', async () => {
    const ride = await bookRide(t, passenger, { offered_fare: 20 });
    for (const name of ['stays', 'arrives']) expect((await live[name]!.next()).type).toBe('ride_requested');
    const res = await t.request({ method: 'PUT', url: `/api/v1/rides/${ride.id}/offer`, token: passenger.accessToken, payload: { offered_fare: 20 } });
    expect(res.statusCode).toBe(400);
    await expectNothingMore(everyone());
    expect((await cancel(t, passenger, ride.id)).statusCode).toBe(200);
    expect((await live.passenger!.next()).type).toBe('ride_cancelled');
  });
});
