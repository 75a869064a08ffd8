import { EventBus } from '../../src/common/events/event-bus';
import { RideDispatchJob } from '../../src/modules/rides/jobs/ride-dispatch.job';
import { closeSentinels, expectNothingMore, LiveClient } from '../realtime/live-client';
import { createUser } from '../support/factories';
import { twoInstancesOverRedis } from '../support/instances';
import { describeWithRedis } from '../support/redis';
import { makeDue, minutesAhead, scheduledRide } from './ride-later-helpers';

/** Several instances run the dispatcher: each due ride is moved by exactly one of them, announced once. */
describeWithRedis('ride later: two instances dispatching at once', () => {
  // The timers stay out: the test runs both dispatchers itself, at the same moment.
  const instances = twoInstancesOverRedis({ RIDE_DISPATCH_SWEEP_SECONDS: '3600' });
  afterAll(async () => {
    const { first, second } = instances();
    await closeSentinels([first, second]);
  });

  it('dispatches each due ride exactly once (SKIP LOCKED): one status change, one event, one message', async () => {
    const { first, second } = instances();
    const passengers = await Promise.all(Array.from({ length: 30 }, () => createUser(first)));
    const rides = [];
    for (const passenger of passengers) rides.push(await scheduledRide(first, passenger, minutesAhead(90)));
    const ids = rides.map((r) => r.id);
    // One passenger listens on the other instance: the event crosses Redis to reach them.
    const live = await LiveClient.connect(second, passengers[0]!.accessToken);
    const published: string[] = [];
    const offs = [first, second].map((app) =>
      app.get(EventBus).subscribe('ride.dispatched', (e, meta) => {
        if (meta.local) published.push(e.ride_id);
      }),
    );
    await makeDue(first, ids);

    const [x, y] = await Promise.all([first.get(RideDispatchJob).sweep(), second.get(RideDispatchJob).sweep()]);
    expect(x + y).toBe(30);
    const [{ n }] = await first.db.query(
      `SELECT count(*)::int AS n FROM ride_events WHERE from_status = 'scheduled' AND to_status = 'requested' AND ride_id = ANY($1::uuid[])`,
      [ids],
    );
    expect(n).toBe(30);
    expect([...published].sort()).toEqual([...ids].sort());
    const [{ left }] = await first.db.query(`SELECT count(*)::int AS left FROM rides WHERE status <> 'requested' AND id = ANY($1::uuid[])`, [ids]);
    expect(left).toBe(0);

    const message = await live.next('ride_status_changed');
    expect(message.ride_id).toBe(ids[0]);
    await expectNothingMore([live], { across: [first, second] });
    for (const off of offs) off();
    await live.close();
  });

  it('dispatches on time without waiting for the timed sweep: each instance wakes at the dispatch time, one takes it', async () => {
    const { first, second } = instances();
    const passenger = await createUser(first);
    const live = await LiveClient.connect(second, passenger.accessToken);
    const published: string[] = [];
    const offs = [first, second].map((app) =>
      app.get(EventBus).subscribe('ride.dispatched', (e, meta) => {
        if (meta.local) published.push(e.ride_id);
      }),
    );
    // Pickup in 15 minutes: due at once with DISPATCH_LEAD_MINUTES=15, while the timed sweeps are an hour apart.
    const ride = await scheduledRide(first, passenger, minutesAhead(15.1));
    expect(ride.status).toBe('scheduled');
    const message = await live.next('ride_status_changed', 8000);
    expect(message.data!.ride).toMatchObject({ id: ride.id, status: 'requested' });
    await expectNothingMore([live], { across: [first, second] });
    expect(published).toEqual([ride.id]);
    const [{ n }] = await first.db.query(`SELECT count(*)::int AS n FROM ride_events WHERE ride_id = $1 AND to_status = 'requested'`, [ride.id]);
    expect(n).toBe(1);
    for (const off of offs) off();
    await live.close();
  });
});
