import { InProcessEventBus } from '../../../common/events/in-process-event-bus';
import { subscribeDomainEventHandlers } from '../../../common/events/on-domain-event';
import { DriverRideCache } from './driver-ride.cache';
import type { RidesRepository } from './rides.repository';
import type { RideView } from './ride-view';
import type { AppConfig } from '../../../config/app-config';

const RIDE = '00000000-0000-4000-8000-000000000001';
const CONFIG = { driverRideCacheMs: 60_000, driverRideCacheMaxEntries: 10_000 } as AppConfig;

describe('DriverRideCache', () => {
  it('a database read that started before an accept does not overwrite the assignment the accept announced', async () => {
    let finishRead: (row: undefined) => void = () => undefined;
    const rides = { findAssignedRefOfDriver: () => new Promise<undefined>((resolve) => (finishRead = resolve)) };
    const events = new InProcessEventBus();
    const cache = new DriverRideCache(rides as unknown as RidesRepository, { driverRideCacheMs: 60_000, driverRideCacheMaxEntries: 100 } as AppConfig, events);
    const unsubscribe = subscribeDomainEventHandlers(events, cache);

    const read = cache.get(7); // the heartbeat's lookup...
    await new Promise((resolve) => setImmediate(resolve)); // ...reads "no ride" from the database...
    events.publish('ride.accepted', { ride_id: RIDE, passenger_id: 3, driver_id: 7, rejected_driver_ids: [], ride: {} as RideView });
    await new Promise((resolve) => setImmediate(resolve)); // ...the accept's event arrives first...
    finishRead(undefined); // ...then the stale read finishes
    expect(await read).toBeNull();
    expect(cache.peek(7)).toEqual({ rideId: RIDE, passengerId: 3 });
    unsubscribe();
  });

  it('misses in one turn of the event loop share one query per 1,000 drivers, each gets its own ride', async () => {
    const calls: number[][] = [];
    const rides = {
      findAssignedRefOfDriver: () => Promise.reject(new Error('one query per batch expected')),
      findAssignedRefsOfDrivers: (ids: number[]) => {
        calls.push(ids);
        return Promise.resolve(ids.filter((id) => id % 2 === 0).map((id) => ({ id: `ride-${id}`, driver_id: id, passenger_id: id + 1 })));
      },
    };
    const events = new InProcessEventBus();
    const cache = new DriverRideCache(rides as unknown as RidesRepository, CONFIG, events);
    const unsubscribe = subscribeDomainEventHandlers(events, cache);
    const ids = Array.from({ length: 2500 }, (_, i) => i + 1);
    const refs = await Promise.all([...ids, 2, 3].map((id) => cache.get(id)));
    expect(calls.map((c) => c.length)).toEqual([1000, 1000, 500]);
    expect(refs[1]).toEqual({ rideId: 'ride-2', passengerId: 3 });
    expect(refs[0]).toBeNull();
    expect(refs.slice(-2)).toEqual([{ rideId: 'ride-2', passengerId: 3 }, null]);
    expect(cache.peek(2500)).toEqual({ rideId: 'ride-2500', passengerId: 2501 });
    unsubscribe();
  });

  it('forgets every assignment when the event bus reconnects (events published meanwhile never arrive)', async () => {
    class ResumableBus extends InProcessEventBus {
      resumed: Array<() => void> = [];
      override onResumed(listener: () => void): () => void {
        this.resumed.push(listener);
        return () => undefined;
      }
    }
    const events = new ResumableBus();
    const rides = { findAssignedRefOfDriver: (id: number) => Promise.resolve({ id: `r${id}`, passenger_id: 9 }) };
    const cache = new DriverRideCache(rides as unknown as RidesRepository, CONFIG, events);
    cache.set(4, { rideId: RIDE, passengerId: 5 });
    expect(cache.peek(4)).toEqual({ rideId: RIDE, passengerId: 5 });
    for (const listener of events.resumed) listener();
    expect(cache.peek(4)).toBeUndefined();
    expect(await cache.get(4)).toEqual({ rideId: 'r4', passengerId: 9 });
  });

  it('a failed query fails the lookups of its chunk only, and nothing is cached for them', async () => {
    let call = 0;
    const rides = {
      findAssignedRefOfDriver: (id: number) => Promise.resolve({ id: `r${id}`, passenger_id: null }),
      findAssignedRefsOfDrivers: (ids: number[]) =>
        ++call === 1 ? Promise.reject(new Error('down')) : Promise.resolve(ids.map((id) => ({ id: `r${id}`, driver_id: id, passenger_id: null }))),
    };
    const events = new InProcessEventBus();
    const cache = new DriverRideCache(rides as unknown as RidesRepository, CONFIG, events);
    const unsubscribe = subscribeDomainEventHandlers(events, cache);
    const results = await Promise.allSettled(Array.from({ length: 1001 }, (_, i) => cache.get(i + 1)));
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1000);
    expect(results[1000]).toEqual({ status: 'fulfilled', value: { rideId: 'r1001', passengerId: null } });
    expect(cache.peek(1)).toBeUndefined();
    unsubscribe();
  });
});
