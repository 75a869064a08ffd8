import { EventBus } from '../../src/common/events/event-bus';
import type { RideStatus } from '../../src/modules/rides/ride-status';
import { partialBid, partialRide } from '../support/event-fixtures';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { expectNothingMore, LiveClient } from './live-client';

/**
 * Routing of each domain event to exactly its receivers (CONTRACT section 5), driven by events
 * published straight on the bus. The REST-driven flow is covered in ride-flow.e2e-spec.ts.
 */
describe('live channel: who receives what', () => {
  let t: TestApp;
  let bus: EventBus;
  let passenger: TestUser;
  let otherPassenger: TestUser;
  let winner: TestUser;
  let loser: TestUser;
  let stranger: TestUser;
  const clients: Record<string, LiveClient> = {};
  const all = (): LiveClient[] => Object.values(clients);
  const except = (...names: string[]): LiveClient[] =>
    Object.entries(clients)
      .filter(([n]) => !names.includes(n))
      .map(([, c]) => c);

  const RIDE_ID = '3f1c7d1e-0000-4000-8000-000000000001';
  const ride = (status: RideStatus, extra: Record<string, unknown> = {}) =>
    partialRide({
      id: RIDE_ID,
      ride_code: 'ABC234',
      status,
      passenger: { id: passenger.id, first_name: 'Paula' },
      driver: status === 'requested' ? null : { id: winner.id, first_name: 'Dana' },
      ...extra,
    });

  beforeAll(async () => {
    t = await startTestApp();
    bus = t.get(EventBus);
    passenger = await createUser(t);
    otherPassenger = await createUser(t);
    winner = await createUser(t, { role: 'driver' });
    loser = await createUser(t, { role: 'driver' });
    stranger = await createUser(t, { role: 'driver' });
    clients.passenger = await LiveClient.connect(t, passenger.accessToken);
    clients.otherPassenger = await LiveClient.connect(t, otherPassenger.accessToken);
    clients.winner = await LiveClient.connect(t, winner.accessToken);
    clients.loser = await LiveClient.connect(t, loser.accessToken);
    clients.stranger = await LiveClient.connect(t, stranger.accessToken);
  });
  afterAll(async () => {
    await Promise.all(all().map((c) => c.close()));
    await t.close();
  });

  it('bid_submitted reaches the ride passenger only', async () => {
    const bid = partialBid({ id: 'bid-1', ride_id: RIDE_ID, amount: 12.5, status: 'pending' });
    bus.publish('bid.submitted', { ride_id: RIDE_ID, passenger_id: passenger.id, driver_id: loser.id, bid });
    expect(await clients.passenger.next()).toEqual({ type: 'bid_submitted', ride_id: RIDE_ID, data: { bid }, at: expect.any(String) });
    await expectNothingMore(all());
  });

  it('ride_accepted reaches the passenger and the winner with the ride, the rejected bidders without the winner', async () => {
    const accepted = ride('accepted', { fare: 12.5 });
    bus.publish('ride.accepted', { ride_id: RIDE_ID, passenger_id: passenger.id, driver_id: winner.id, rejected_driver_ids: [loser.id], ride: accepted });
    for (const c of [clients.passenger, clients.winner]) {
      expect(await c.next()).toEqual({ type: 'ride_accepted', ride_id: RIDE_ID, data: { ride: accepted }, at: expect.any(String) });
    }
    expect(await clients.loser.next()).toMatchObject({
      type: 'ride_accepted',
      ride_id: RIDE_ID,
      data: { ride: { id: RIDE_ID, status: 'accepted', driver: null }, bid_status: 'rejected' },
    });
    await expectNothingMore(all());
  });

  it('ride_status_changed reaches the passenger and the assigned driver', async () => {
    for (const status of ['driver_arrived', 'started', 'completed'] as const) {
      bus.publish('ride.status_changed', { ride_id: RIDE_ID, passenger_id: passenger.id, driver_id: winner.id, status, ride: ride(status) });
      for (const c of [clients.passenger, clients.winner]) {
        expect(await c.next()).toMatchObject({ type: 'ride_status_changed', ride_id: RIDE_ID, data: { ride: { status } } });
      }
    }
    await expectNothingMore(all());
  });

  it('ride_cancelled reaches the passenger, the assigned driver and every bidder, saying who cancelled', async () => {
    const cancelled = ride('cancelled', { cancelled_by: 'passenger', cancel_reason: 'changed plans' });
    bus.publish('ride.cancelled', {
      ride_id: RIDE_ID,
      passenger_id: passenger.id,
      driver_id: winner.id,
      bidder_driver_ids: [loser.id],
      cancelled_by: 'passenger',
      ride: cancelled,
    });
    for (const c of [clients.passenger, clients.winner]) {
      expect(await c.next()).toEqual({
        type: 'ride_cancelled',
        ride_id: RIDE_ID,
        data: { ride: cancelled, cancelled_by: 'passenger' },
        at: expect.any(String),
      });
    }
    expect(await clients.loser.next()).toMatchObject({
      type: 'ride_cancelled',
      data: { ride: { status: 'cancelled', driver: null }, cancelled_by: 'passenger', bid_status: 'withdrawn' },
    });
    await expectNothingMore(all());
  });

  it('a requested ride cancelled by its passenger reaches the passenger and the bidders', async () => {
    const cancelled = ride('requested', { status: 'cancelled', cancelled_by: 'passenger' });
    bus.publish('ride.cancelled', {
      ride_id: RIDE_ID,
      passenger_id: passenger.id,
      driver_id: null,
      bidder_driver_ids: [loser.id, winner.id],
      cancelled_by: 'passenger',
      ride: cancelled,
    });
    expect(await clients.passenger.next()).toMatchObject({ type: 'ride_cancelled', data: { ride: { status: 'cancelled' } } });
    for (const c of [clients.loser, clients.winner]) expect(await c.next()).toMatchObject({ type: 'ride_cancelled', data: { bid_status: 'withdrawn' } });
    await expectNothingMore(all());
  });

  it('an expired ride is a ride_status_changed for the passenger and for drivers who had bid', async () => {
    const expired = ride('requested', { status: 'expired' });
    bus.publish('ride.expired', { ride_id: RIDE_ID, passenger_id: passenger.id, bidder_driver_ids: [loser.id], ride: expired });
    expect(await clients.passenger.next()).toEqual({ type: 'ride_status_changed', ride_id: RIDE_ID, data: { ride: expired }, at: expect.any(String) });
    expect(await clients.loser.next()).toMatchObject({ type: 'ride_status_changed', data: { ride: { status: 'expired' }, bid_status: 'withdrawn' } });
    await expectNothingMore(all());
  });

  it('driver_location reaches the passenger only, at most once per second per ride, ending on the latest point', async () => {
    const at = new Date().toISOString();
    const point = (i: number) => ({ latitude: 52.5 + i / 1000, longitude: 13.4, heading: 90, speed: 8.5, accuracy: 5, at });
    for (let i = 0; i < 5; i += 1) {
      bus.publish('driver.location_updated', { ride_id: RIDE_ID, passenger_id: passenger.id, driver_id: winner.id, location: point(i) });
    }
    const first = await clients.passenger.next();
    expect(first).toEqual({ type: 'driver_location', ride_id: RIDE_ID, data: { driver_id: winner.id, location: point(0) }, at: expect.any(String) });
    const second = await clients.passenger.next('driver_location', 2000);
    expect(second.data).toEqual({ driver_id: winner.id, location: point(4) });
    expect(Date.parse(second.at) - Date.parse(first.at)).toBeGreaterThanOrEqual(950);
    await expectNothingMore(all());
  });

  it('nobody is sent events about a ride of a user who is not connected', async () => {
    bus.publish('bid.submitted', { ride_id: RIDE_ID, passenger_id: 999_999, driver_id: loser.id, bid: partialBid({ id: 'x' }) });
    bus.publish('driver.location_updated', {
      ride_id: RIDE_ID,
      passenger_id: 999_999,
      driver_id: winner.id,
      location: { latitude: 1, longitude: 1, heading: null, speed: null, accuracy: null, at: new Date().toISOString() },
    });
    await expectNothingMore(except());
  });
});
