import { createUser, TestUser } from '../support/factories';
import { twoInstancesOverRedis } from '../support/instances';
import { describeWithRedis } from '../support/redis';
import type { TestApp } from '../support/test-app';
import { area, CACHED, nearbyIds, rideAs, until } from './ride-cache-helpers';
import { accept, bookRide, cancel, onlineDriver, placeBid, setStatus } from './ride-helpers';

/** The ride details cache and nearby on one instance follow the changes made on another, over Redis. */

describeWithRedis('ride caches across two instances (Redis events)', () => {
  const apps = twoInstancesOverRedis(CACHED);
  let a: TestApp;
  let b: TestApp;
  beforeAll(() => ({ first: a, second: b } = apps()));

  const statusOn = async (t: TestApp, user: TestUser, rideId: string) => (await rideAs(t, user, rideId)).status as string;

  it('a ride cached on one instance follows accept, status changes and cancellation made on the other', async () => {
    const passenger = await createUser(a);
    const driver = await onlineDriver(a);
    const ride = await bookRide(a, passenger);
    expect(await statusOn(b, passenger, ride.id)).toBe('requested');

    const bid = await placeBid(a, driver, ride.id);
    expect((await accept(a, passenger, ride.id, bid.id)).statusCode).toBe(200);
    expect(
      await until(
        () => statusOn(b, passenger, ride.id),
        (s) => s === 'accepted',
      ),
    ).toBe('accepted');
    expect(await statusOn(b, driver, ride.id)).toBe('accepted');

    expect((await setStatus(a, driver, ride.id, 'driver_arrived')).statusCode).toBe(200);
    expect(
      await until(
        () => statusOn(b, passenger, ride.id),
        (s) => s === 'driver_arrived',
      ),
    ).toBe('driver_arrived');

    expect((await cancel(a, passenger, ride.id)).statusCode).toBe(200);
    expect(
      await until(
        () => statusOn(b, driver, ride.id),
        (s) => s === 'cancelled',
      ),
    ).toBe('cancelled');
  });

  it('nearby on one instance follows bookings and acceptances made on the other', async () => {
    const pickup = area(47.9);
    const driver = await onlineDriver(a);
    expect(await nearbyIds(b, driver, pickup)).toEqual([]);
    const passenger = await createUser(a);
    const ride = await bookRide(a, passenger, { pickup });
    expect(
      await until(
        () => nearbyIds(b, driver, pickup),
        (ids) => ids.length === 1,
      ),
    ).toEqual([ride.id]);

    const bid = await placeBid(a, driver, ride.id);
    expect((await accept(a, passenger, ride.id, bid.id)).statusCode).toBe(200);
    expect(
      await until(
        () => nearbyIds(b, driver, pickup),
        (ids) => ids.length === 0,
      ),
    ).toEqual([]);
  });
});
