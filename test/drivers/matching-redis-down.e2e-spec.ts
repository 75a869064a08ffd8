import { DriverLocationsService } from '../../src/modules/drivers/driver-locations.service';
import { DriverMatchingService } from '../../src/modules/drivers/matching/driver-matching.service';
import { LiveClient } from '../realtime/live-client';
import { bookRide, PICKUP } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { describeWithRedisServer, spawnRedis, TestRedis } from '../support/redis';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Positions are local first (issue 17): with REDIS_URL set and Redis down, an instance still
 * matches the drivers whose heartbeats it answered, and the positions flushed to the table (by any
 * instance), never nobody.
 */
describeWithRedisServer('matching while Redis is down', () => {
  let t: TestApp;
  let redis: TestRedis;
  let passenger: TestUser;
  let local: TestUser;
  let flushed: TestUser;
  let far: TestUser;
  const sockets: LiveClient[] = [];

  beforeAll(async () => {
    redis = await spawnRedis();
    // Reconciled every second here (15 s by default), so the test waits for the timer, not for a call.
    t = await startTestApp({ env: { REDIS_URL: redis.url, DRIVER_MATCHING_RECONCILE_SECONDS: '1' } });
    passenger = await createUser(t);
    [local, flushed, far] = [await createUser(t, { role: 'driver' }), await createUser(t, { role: 'driver' }), await createUser(t, { role: 'driver' })];
    for (const d of [local, flushed, far]) {
      expect((await t.request({ method: 'PUT', url: '/api/v1/driver/status', token: d.accessToken, payload: { is_online: true } })).statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    for (const s of sockets) await s.close();
    await t?.close();
    await redis?.stop();
  });

  it('a driver who heartbeats on the instance where the passenger books receives ride_requested', async () => {
    const socket = await LiveClient.connect(t, local.accessToken);
    sockets.push(socket);
    await redis.stop();
    await redis.exited; // down for certain before the heartbeat

    const near = { latitude: PICKUP.latitude + 0.002, longitude: PICKUP.longitude };
    const beat = await t.request({ method: 'PUT', url: '/api/v1/driver/location', token: local.accessToken, payload: near });
    expect(beat.statusCode).toBe(200);
    const ride = await bookRide(t, passenger);
    expect(await socket.next('ride_requested')).toMatchObject({ type: 'ride_requested', ride_id: ride.id, data: { ride: { id: ride.id } } });
    expect(t.get(DriverMatchingService).countAvailableNear(PICKUP, 5, 1)).toBe(1);
  });

  it('also matches a driver known only from the table (heard by another instance), not one whose flushed position is far', async () => {
    // Another instance answered these heartbeats and flushed them; this one never saw them.
    await t.db.query(`UPDATE drivers SET last_latitude = $2, last_longitude = $3, last_location_at = now() WHERE user_id = $1`, [
      flushed.id,
      PICKUP.latitude - 0.002,
      PICKUP.longitude,
    ]);
    await t.db.query(`UPDATE drivers SET last_latitude = $2, last_longitude = $3, last_location_at = now() WHERE user_id = $1`, [
      far.id,
      PICKUP.latitude + 1,
      PICKUP.longitude,
    ]);
    await t.get(DriverLocationsService).flush();
    const told = () => t.get(DriverMatchingService).driversToTell(1, PICKUP, t.config.matchingRadiusKm);
    await waitFor('the flushed position reconciled', () => told().includes(flushed.id));
    expect(told().sort()).toEqual([local.id, flushed.id].sort());
  });
});
