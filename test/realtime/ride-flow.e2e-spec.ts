import type { BidView } from '../../src/modules/rides/bids/bid-view';
import { RideExpiryJob } from '../../src/modules/rides/jobs/ride-expiry.job';
import { UsersService } from '../../src/modules/users/users.service';
import { accept, bookRide, cancel, DROPOFF, PICKUP, placeBid, setStatus } from '../rides/ride-helpers';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { NearbyDriversPort } from '../../src/modules/realtime/ports/nearby-drivers.port';
import { waitFor } from '../support/wait';
import { expectNothingMore, LiveClient } from './live-client';

/**
 * A whole ride followed live from the REST calls that cause each event: every event reaches exactly
 * its receivers, including a second passenger and far-away, wrong-category or offline drivers who
 * must receive nothing.
 */
describe('live channel: a ride followed end to end from REST calls', () => {
  let t: TestApp;
  let passenger: TestUser;
  let otherPassenger: TestUser;
  let near1: TestUser;
  let near2: TestUser;
  let far: TestUser;
  let wrongCategory: TestUser;
  let offline: TestUser;
  const live: Record<string, LiveClient> = {};
  const everyone = (): LiveClient[] => Object.values(live);

  async function goOnlineAt(driver: TestUser, latitude: number, longitude: number): Promise<void> {
    const status = await t.request({ method: 'PUT', url: '/api/v1/driver/status', token: driver.accessToken, payload: { is_online: true } });
    expect(status.statusCode).toBe(200);
    const location = await t.request({ method: 'PUT', url: '/api/v1/driver/location', token: driver.accessToken, payload: { latitude, longitude } });
    expect(location.statusCode).toBe(200);
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { LOCATION_FLUSH_MS: '50' } });
    passenger = await createUser(t, { firstName: 'Paula' });
    otherPassenger = await createUser(t, { firstName: 'Quinn' });
    near1 = await createUser(t, { role: 'driver', vehicleCategoryId: 1 });
    near2 = await createUser(t, { role: 'driver', vehicleCategoryId: null });
    far = await createUser(t, { role: 'driver', vehicleCategoryId: 1 });
    wrongCategory = await createUser(t, { role: 'driver', vehicleCategoryId: 3 });
    offline = await createUser(t, { role: 'driver', vehicleCategoryId: 1 });
    await goOnlineAt(near1, PICKUP.latitude + 0.002, PICKUP.longitude);
    await goOnlineAt(near2, PICKUP.latitude, PICKUP.longitude + 0.003);
    await goOnlineAt(far, DROPOFF.latitude + 1, DROPOFF.longitude); // ~100 km away
    await goOnlineAt(wrongCategory, PICKUP.latitude, PICKUP.longitude);
    await goOnlineAt(offline, PICKUP.latitude, PICKUP.longitude);
    await t.request({ method: 'PUT', url: '/api/v1/driver/status', token: offline.accessToken, payload: { is_online: false } });
    // Matching sees exactly the two nearby drivers of the category before anything is booked.
    const matched = () => t.get(NearbyDriversPort).findOnlineDriverIdsNear(1, PICKUP, t.config.matchingRadiusKm);
    await waitFor('the nearby drivers matchable', async () => [...(await matched())].sort().join() === [near1.id, near2.id].sort().join());

    live.passenger = await LiveClient.connect(t, passenger.accessToken);
    live.otherPassenger = await LiveClient.connect(t, otherPassenger.accessToken);
    live.near1 = await LiveClient.connect(t, near1.accessToken);
    live.near2 = await LiveClient.connect(t, near2.accessToken);
    live.far = await LiveClient.connect(t, far.accessToken);
    live.wrongCategory = await LiveClient.connect(t, wrongCategory.accessToken);
    live.offline = await LiveClient.connect(t, offline.accessToken);
  });
  afterAll(async () => {
    await Promise.all(everyone().map((c) => c.close()));
    await t.close();
  });

  it('follows booking, bids, acceptance, the trip and its end', async () => {
    // Booking: ride_requested to the nearby drivers who serve the category, and nobody else.
    const ride = await bookRide(t, passenger);
    for (const name of ['near1', 'near2']) {
      const message = await live[name].next();
      expect(message).toEqual({
        type: 'ride_requested',
        ride_id: ride.id,
        data: { ride: expect.objectContaining({ id: ride.id, status: 'requested' }) },
        at: expect.any(String),
      });
    }
    await expectNothingMore(everyone());

    // Bids: bid_submitted to the passenger only.
    const bid1 = await placeBid(t, near1, ride.id, 11);
    const bid2 = await placeBid(t, near2, ride.id, 9.5);
    const seen = [await live.passenger.next(), await live.passenger.next()];
    expect(seen.map((m) => m.type)).toEqual(['bid_submitted', 'bid_submitted']);
    expect(seen.map((m) => (m.data!.bid as BidView).id).sort()).toEqual([bid1.id, bid2.id].sort());
    expect(seen.every((m) => m.ride_id === ride.id)).toBe(true);
    expect(seen.find((m) => (m.data!.bid as BidView).id === bid2.id)!.data!.bid).toMatchObject({ ride_id: ride.id, amount: 9.5, status: 'pending' });
    await expectNothingMore(everyone());

    // A reconnecting passenger is in sync from the snapshot alone: the ride and its bids.
    const again = await LiveClient.open(`${t.wsUrl}/api/v1/ws/rides/live?token=${passenger.accessToken}`);
    const snapshot = await again.next();
    expect(snapshot).toMatchObject({ type: 'ride_snapshot', ride_id: ride.id, data: { ride: { id: ride.id, status: 'requested' } } });
    expect((snapshot.data!.bids as BidView[]).map((b) => b.id).sort()).toEqual([bid1.id, bid2.id].sort());
    await again.close();

    // Acceptance: the passenger and the winner get the ride; the other bidder learns it lost.
    const accepted = await accept(t, passenger, ride.id, bid1.id);
    expect(accepted.statusCode).toBe(200);
    for (const name of ['passenger', 'near1']) {
      expect(await live[name].next()).toMatchObject({
        type: 'ride_accepted',
        ride_id: ride.id,
        data: { ride: { status: 'accepted', driver: { id: near1.id } } },
      });
    }
    expect(await live.near2.next()).toMatchObject({
      type: 'ride_accepted',
      ride_id: ride.id,
      data: { ride: { status: 'accepted', driver: null }, bid_status: 'rejected' },
    });
    await expectNothingMore(everyone());

    // The driver's snapshot shows the assigned ride.
    const driverAgain = await LiveClient.open(`${t.wsUrl}/api/v1/ws/rides/live?token=${near1.accessToken}`);
    expect(await driverAgain.next()).toMatchObject({ type: 'ride_snapshot', ride_id: ride.id, data: { ride: { id: ride.id, status: 'accepted' } } });
    await driverAgain.close();

    // Location heartbeat: driver_location to this ride's passenger only.
    const heartbeat = await t.request({
      method: 'PUT',
      url: '/api/v1/driver/location',
      token: near1.accessToken,
      payload: { latitude: 52.52, longitude: 13.41, heading: 180, speed: 7 },
    });
    expect(heartbeat.statusCode).toBe(200);
    expect(await live.passenger.next()).toMatchObject({
      type: 'driver_location',
      ride_id: ride.id,
      data: { driver_id: near1.id, location: { latitude: 52.52, longitude: 13.41, heading: 180, speed: 7 } },
    });
    await expectNothingMore(everyone());

    // The trip: each status change to the passenger and the driver.
    for (const status of ['driver_arrived', 'started', 'completed']) {
      expect((await setStatus(t, near1, ride.id, status)).statusCode).toBe(200);
      for (const name of ['passenger', 'near1']) {
        expect(await live[name].next()).toMatchObject({ type: 'ride_status_changed', ride_id: ride.id, data: { ride: { id: ride.id, status } } });
      }
    }
    await expectNothingMore(everyone());
  });

  it('a passenger cancellation reaches the passenger and every driver with a live bid', async () => {
    const ride = await bookRide(t, passenger);
    for (const name of ['near1', 'near2']) expect((await live[name].next()).type).toBe('ride_requested');
    await placeBid(t, near2, ride.id, 12);
    expect((await live.passenger.next()).type).toBe('bid_submitted');

    expect((await cancel(t, passenger, ride.id, 'Plans changed')).statusCode).toBe(200);
    expect(await live.passenger.next()).toMatchObject({
      type: 'ride_cancelled',
      ride_id: ride.id,
      data: { ride: { status: 'cancelled', cancelled_by: 'passenger', cancel_reason: 'Plans changed' }, cancelled_by: 'passenger' },
    });
    expect(await live.near2.next()).toMatchObject({ type: 'ride_cancelled', ride_id: ride.id, data: { cancelled_by: 'passenger', bid_status: 'withdrawn' } });
    await expectNothingMore(everyone());
  });

  it('a driver cancellation reaches the passenger and the assigned driver', async () => {
    const ride = await bookRide(t, passenger);
    for (const name of ['near1', 'near2']) expect((await live[name].next()).type).toBe('ride_requested');
    const bid = await placeBid(t, near2, ride.id, 8);
    expect((await live.passenger.next()).type).toBe('bid_submitted');
    expect((await accept(t, passenger, ride.id, bid.id)).statusCode).toBe(200);
    for (const name of ['passenger', 'near2']) expect((await live[name].next()).type).toBe('ride_accepted');

    expect((await cancel(t, near2, ride.id)).statusCode).toBe(200);
    for (const name of ['passenger', 'near2']) {
      expect(await live[name].next()).toMatchObject({
        type: 'ride_cancelled',
        ride_id: ride.id,
        data: { cancelled_by: 'driver', ride: { status: 'cancelled' } },
      });
    }
    await expectNothingMore(everyone());
  });

  it('an expired request is a ride_status_changed for the passenger and the drivers who bid', async () => {
    const ride = await bookRide(t, passenger);
    for (const name of ['near1', 'near2']) expect((await live[name].next()).type).toBe('ride_requested');
    await placeBid(t, near1, ride.id, 10);
    expect((await live.passenger.next()).type).toBe('bid_submitted');

    await t.db.query(`UPDATE rides SET expires_at = now() - interval '1 second' WHERE id = $1`, [ride.id]);
    expect(await t.get(RideExpiryJob).sweep()).toBe(1);
    expect(await live.passenger.next()).toMatchObject({ type: 'ride_status_changed', ride_id: ride.id, data: { ride: { id: ride.id, status: 'expired' } } });
    expect(await live.near1.next()).toMatchObject({
      type: 'ride_status_changed',
      ride_id: ride.id,
      data: { ride: { status: 'expired' }, bid_status: 'withdrawn' },
    });
    await expectNothingMore(everyone());
  });

  it('the other passenger never heard of any of it', () => {
    expect(live.otherPassenger.received.map((m) => m.type)).toEqual(['ride_snapshot']);
    for (const name of ['far', 'wrongCategory', 'offline']) expect(live[name].received.map((m) => m.type)).toEqual(['ride_snapshot']);
  });

  it('blocking a user or deleting the account closes their sockets (4403)', async () => {
    const blocked = await createUser(t);
    const deleted = await createUser(t);
    const blockedSocket = await LiveClient.connect(t, blocked.accessToken);
    const deletedSocket = await LiveClient.connect(t, deleted.accessToken);
    await t.get(UsersService).setBlocked(blocked.id, true, { actorId: null, reason: 'in a test' });
    expect((await blockedSocket.closed).code).toBe(4403);
    const res = await t.request({ method: 'DELETE', url: '/api/v1/auth/account', token: deleted.accessToken });
    expect(res.statusCode).toBeLessThan(300);
    expect((await deletedSocket.closed).code).toBe(4403);
    await expectNothingMore(everyone());
  });
});
