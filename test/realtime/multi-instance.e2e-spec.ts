import { EventBus } from '../../src/common/events/event-bus';
import { RedisEventBus } from '../../src/common/events/redis-event-bus';
import { accept, bookRide, PICKUP, placeBid, setStatus } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { REDIS_SOURCE, startRedis, TestRedis } from '../support/redis';
import { startTestApp, TestApp } from '../support/test-app';
import { NearbyDriversPort } from '../../src/modules/realtime/ports/nearby-drivers.port';
import { waitFor } from '../support/wait';
import { eventsCrossed, expectNothingMore, LiveClient } from './live-client';

/**
 * Two service instances sharing PostgreSQL and Redis, as behind a load balancer: a client connected
 * to one instance receives the events caused by REST calls on the other. Uses REDIS_URL (CI sets
 * redis://127.0.0.1:6379), else a throwaway redis-server when installed; without either it says why.
 */
if (REDIS_SOURCE) {
  describe('live channel across two instances (Redis pub/sub)', () => {
    let redis: TestRedis;
    let first: TestApp;
    let second: TestApp;
    let passenger: TestUser;
    let driver: TestUser;
    let bystander: TestUser;

    beforeAll(async () => {
      redis = await startRedis();
      const env = { REDIS_URL: redis.url, LOCATION_FLUSH_MS: '50' };
      first = await startTestApp({ env });
      second = await startTestApp({ databaseUrl: first.databaseUrl, env });
      passenger = await createUser(first);
      driver = await createUser(first, { role: 'driver' });
      bystander = await createUser(first, { role: 'driver' });
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
      await redis?.stop();
    });

    it('runs the Redis bus on both instances', () => {
      expect(first.get(EventBus)).toBeInstanceOf(RedisEventBus);
      expect(second.get(EventBus)).toBeInstanceOf(RedisEventBus);
    });

    it('delivers the events of REST calls made on one instance to sockets held by the other, once each', async () => {
      // The driver goes online and reports its position through instance two; it is connected to instance two.
      for (const d of [driver, bystander]) {
        expect((await second.request({ method: 'PUT', url: '/api/v1/driver/status', token: d.accessToken, payload: { is_online: true } })).statusCode).toBe(
          200,
        );
      }
      const near = { latitude: PICKUP.latitude + 0.001, longitude: PICKUP.longitude };
      expect((await second.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: near })).statusCode).toBe(200);
      const farAway = { latitude: PICKUP.latitude + 2, longitude: PICKUP.longitude };
      expect((await second.request({ method: 'PUT', url: '/api/v1/driver/location', token: bystander.accessToken, payload: farAway })).statusCode).toBe(200);
      const matched = () => first.get(NearbyDriversPort).findOnlineDriverIdsNear(1, PICKUP, first.config.matchingRadiusKm);
      await waitFor('the near driver matchable from instance one', async () => (await matched()).join() === String(driver.id));

      const passengerOnFirst = await LiveClient.connect(first, passenger.accessToken);
      const passengerOnSecond = await LiveClient.connect(second, passenger.accessToken);
      const driverOnSecond = await LiveClient.connect(second, driver.accessToken);
      const bystanderOnFirst = await LiveClient.connect(first, bystander.accessToken);
      const all = [passengerOnFirst, passengerOnSecond, driverOnSecond, bystanderOnFirst];

      // Booked on instance one: the driver, connected to instance two, is offered the ride (the far driver is not).
      const ride = await bookRide(first, passenger);
      expect(await driverOnSecond.next()).toMatchObject({ type: 'ride_requested', ride_id: ride.id, data: { ride: { id: ride.id } } });
      await expectNothingMore(all, { across: [first, second] });

      // Bid on instance two: both of the passenger's sockets get it, one on each instance.
      const bid = await placeBid(second, driver, ride.id, 14);
      for (const c of [passengerOnFirst, passengerOnSecond]) expect(await c.next()).toMatchObject({ type: 'bid_submitted', data: { bid: { id: bid.id } } });
      await expectNothingMore(all, { across: [first, second] });

      // Accepted on instance one.
      expect((await accept(first, passenger, ride.id, bid.id)).statusCode).toBe(200);
      for (const c of [passengerOnFirst, passengerOnSecond, driverOnSecond]) expect((await c.next()).type).toBe('ride_accepted');

      // Heartbeats on instance two reach the passenger on instance one at once: instance two learned
      // of the acceptance made on instance one from the ride.accepted event (its driver socket above
      // got ride_accepted, so the event has been dispatched there), not from a cache expiry.
      const firstLocation = passengerOnFirst.next('driver_location', 3000);
      await second.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: { latitude: 52.53, longitude: 13.42 } });
      expect(await firstLocation).toMatchObject({ type: 'driver_location', data: { driver_id: driver.id, location: { latitude: 52.53, longitude: 13.42 } } });
      for (const c of [passengerOnSecond]) {
        expect(await c.next()).toMatchObject({ type: 'driver_location', data: { driver_id: driver.id, location: { latitude: 52.53, longitude: 13.42 } } });
      }

      // One heartbeat, one driver_location per instance (a throttle sends the first at once): none is left to come.
      await eventsCrossed([first, second]);
      for (const c of [passengerOnFirst, passengerOnSecond]) while (c.pending().length > 0) await c.next('driver_location');

      // Status changed through instance two reaches everyone concerned on both.
      expect((await setStatus(second, driver, ride.id, 'driver_arrived')).statusCode).toBe(200);
      for (const c of [passengerOnFirst, passengerOnSecond, driverOnSecond]) {
        expect(await c.next()).toMatchObject({ type: 'ride_status_changed', data: { ride: { status: 'driver_arrived' } } });
      }
      await expectNothingMore(all, { across: [first, second] });
      await Promise.all(all.map((c) => c.close()));
    });

    it("closes a revoked user's sockets on every instance", async () => {
      const user = await createUser(first);
      const a = await LiveClient.connect(first, user.accessToken);
      const b = await LiveClient.connect(second, user.accessToken);
      const res = await second.request({ method: 'DELETE', url: '/api/v1/auth/account', token: user.accessToken });
      expect(res.statusCode).toBeLessThan(300);
      for (const c of [a, b]) expect((await c.closed).code).toBe(4403);
    });
  });
} else {
  test('two-instance live channel: not run, it needs Redis (set REDIS_URL=redis://127.0.0.1:6379 or install redis-server)', () => {
    console.warn('test/realtime/multi-instance.e2e-spec.ts did not run: set REDIS_URL or install redis-server.');
  });
}
