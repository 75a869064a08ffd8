import { bookRide, PICKUP } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { twoInstancesOverRedis } from '../support/instances';
import { describeWithRedis } from '../support/redis';
import { startTestApp, TestApp } from '../support/test-app';
import { NearbyDriversPort } from '../../src/modules/realtime/ports/nearby-drivers.port';
import { waitFor } from '../support/wait';
import { expectNothingMore, LiveClient } from './live-client';

/**
 * Who gets ride_requested depends on the heartbeats the matchers hold (answered on the instance, or
 * reported by another over the bus), not on the database flush: the flush interval is a minute here,
 * so every position the matcher uses comes from a heartbeat.
 * DRIVER_LOCATION_MAX_AGE_SECONDS=1 makes a silent driver unmatchable quickly.
 */
const ENV = { LOCATION_FLUSH_MS: '60000', DRIVER_LOCATION_MAX_AGE_SECONDS: '1' };
/** ~300 m north of the pickup. */
const NEAR = { latitude: PICKUP.latitude + 0.0027, longitude: PICKUP.longitude };

async function goOnline(t: TestApp, driver: TestUser): Promise<void> {
  const res = await t.request({ method: 'PUT', url: '/api/v1/driver/status', token: driver.accessToken, payload: { is_online: true } });
  expect(res.statusCode).toBe(200);
}

async function heartbeat(t: TestApp, driver: TestUser, point = NEAR): Promise<void> {
  const res = await t.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: point });
  expect(res.statusCode).toBe(200);
}

/** Books from a fresh passenger and expects the driver's socket to be offered exactly that ride. */
async function expectOffered(bookOn: TestApp, driverSocket: LiveClient): Promise<void> {
  const passenger = await createUser(bookOn);
  const ride = await bookRide(bookOn, passenger);
  expect(await driverSocket.next('ride_requested', 3000)).toMatchObject({ type: 'ride_requested', ride_id: ride.id });
}

/**
 * Books with a witness: an eligible driver connected to the same instance as the driver under test.
 * The gateway sends one ride_requested to all its receivers at once, so once the witness has it, a
 * ping round trip on the other socket shows whether it was sent there too.
 */
async function expectNotOffered(bookOn: TestApp, heartbeatOn: TestApp, driverSocket: LiveClient, connectedTo: TestApp): Promise<void> {
  const witness = await createUser(heartbeatOn, { role: 'driver' });
  const witnessSocket = await LiveClient.connect(connectedTo, witness.accessToken);
  const passenger = await createUser(bookOn);
  await goOnline(heartbeatOn, witness);
  await heartbeat(heartbeatOn, witness);
  // A heartbeat answered by another instance reaches the booking instance's matcher over the bus.
  await waitFor('the witness matchable where the ride is booked', () => matchable(bookOn, witness));
  const ride = await bookRide(bookOn, passenger);
  expect(await witnessSocket.next('ride_requested', 3000)).toMatchObject({ ride_id: ride.id });
  await expectNothingMore([driverSocket]);
  await witnessSocket.close();
}

/**
 * Until the matcher of that instance no longer counts the driver as near and recent. It must have
 * heard the heartbeat first: a heartbeat answered by another instance reaches this one's matcher
 * over the bus, a moment after it was answered.
 */
async function untilUnmatchable(t: TestApp, driver: TestUser): Promise<void> {
  await waitFor('the driver matchable', () => matchable(t, driver));
  await waitFor('the silent driver unmatchable', () => !matchable(t, driver));
}

/** Whether that instance's matcher counts the driver as near NEAR and recent. */
function matchable(t: TestApp, driver: TestUser): boolean {
  return t.get(NearbyDriversPort).findOnlineDriverIdsNear(1, NEAR, t.config.matchingRadiusKm).includes(driver.id);
}

/** The checks shared by the memory store (one instance) and the Redis store (two instances). */
function matchingCases(apps: () => { heartbeatOn: TestApp; bookOn: TestApp; connectTo: TestApp[] }): void {
  it('offers a ride to a driver who just came online and sent a first heartbeat', async () => {
    const { heartbeatOn, bookOn, connectTo } = apps();
    for (const instance of connectTo) {
      const driver = await createUser(heartbeatOn, { role: 'driver' });
      const socket = await LiveClient.connect(instance, driver.accessToken);
      await goOnline(heartbeatOn, driver);
      await heartbeat(heartbeatOn, driver);
      await expectOffered(bookOn, socket);
      await socket.close();
    }
  });

  it('stops offering rides to a silent driver, and offers again after the next heartbeat', async () => {
    const { heartbeatOn, bookOn, connectTo } = apps();
    const driver = await createUser(heartbeatOn, { role: 'driver' });
    const socket = await LiveClient.connect(connectTo[0], driver.accessToken);
    await goOnline(heartbeatOn, driver);
    await heartbeat(heartbeatOn, driver);
    await untilUnmatchable(bookOn, driver);
    await expectNotOffered(bookOn, heartbeatOn, socket, connectTo[0]);

    await heartbeat(heartbeatOn, driver);
    await expectOffered(bookOn, socket);
    await socket.close();
  });

  it('does not offer a ride to a recent driver outside the radius', async () => {
    const { heartbeatOn, bookOn, connectTo } = apps();
    const driver = await createUser(heartbeatOn, { role: 'driver' });
    const socket = await LiveClient.connect(connectTo[0], driver.accessToken);
    await goOnline(heartbeatOn, driver);
    await heartbeat(heartbeatOn, driver, { latitude: PICKUP.latitude + 0.5, longitude: PICKUP.longitude });
    await expectNotOffered(bookOn, heartbeatOn, socket, connectTo[0]);
    await socket.close();
  });
}

describe('matching from the in-memory live position store (one instance, no Redis)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: ENV });
  });
  afterAll(() => t?.close());

  matchingCases(() => ({ heartbeatOn: t, bookOn: t, connectTo: [t] }));
});

describeWithRedis('matching from the Redis live position store (two instances)', () => {
  const apps = twoInstancesOverRedis(ENV);
  let a: TestApp;
  let b: TestApp;
  beforeAll(() => ({ first: a, second: b } = apps()));

  // Heartbeat on A, booking on B; the driver is connected to B in one round and to A in the other.
  matchingCases(() => ({ heartbeatOn: a, bookOn: b, connectTo: [b, a] }));

  it("shows the heartbeat sent to one instance in the other's profile and nearby default point", async () => {
    const driver = await createUser(a, { role: 'driver' });
    await goOnline(a, driver);
    const nearby = () => b.request({ method: 'GET', url: '/api/v1/driver/rides/nearby', token: driver.accessToken });
    // Nothing flushed and no heartbeat yet: B knows no position.
    expect((await nearby()).statusCode).toBe(400);

    await heartbeat(a, driver, { latitude: 48.1372, longitude: 11.5756 });
    const profile = await b.request({ method: 'GET', url: '/api/v1/driver/profile', token: driver.accessToken });
    expect(profile.json().last_location).toMatchObject({ latitude: 48.1372, longitude: 11.5756 });
    expect((await a.db.query(`SELECT last_latitude FROM drivers WHERE user_id = $1`, [driver.id]))[0].last_latitude).toBeNull();

    const passenger = await createUser(a);
    const munich = { address: 'Marienplatz, München', latitude: 48.1374, longitude: 11.5755 };
    const ride = await bookRide(a, passenger, { pickup: munich, dropoff: { address: 'Odeonsplatz', latitude: 48.1423, longitude: 11.5774 } });
    // The booking reaches B's open requests over Redis (the contract's bound is 100 ms): B's nearby
    // answers from its own default point, the heartbeat A received, once the ride is there.
    const ids = await waitFor("the ride in B's nearby", async () => {
      const res = await nearby();
      expect(res.statusCode).toBe(200);
      const listed = (res.json() as Array<{ id: string }>).map((r) => r.id);
      return listed.includes(ride.id) && listed;
    });
    expect(ids).toContain(ride.id);
  });
});
