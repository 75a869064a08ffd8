import { InProcessEventBus } from '../../common/events/in-process-event-bus';
import { DriverRideCache } from './driver-ride.cache';
import type { RidesRepository } from './repositories/rides.repository';
import type { RideView } from './views/ride-view';
import type { AppConfig } from '../../config/app-config';

const RIDE = '00000000-0000-4000-8000-000000000001';

describe('DriverRideCache', () => {
  it('a database read that started before an accept does not overwrite the assignment the accept announced', async () => {
    let finishRead: (row: undefined) => void = () => undefined;
    const rides = { findAssignedRefOfDriver: () => new Promise<undefined>((resolve) => (finishRead = resolve)) };
    const events = new InProcessEventBus();
    const cache = new DriverRideCache(rides as unknown as RidesRepository, events, { driverRideCacheMs: 2000, driverRideCacheMaxEntries: 100 } as AppConfig);

    const read = cache.get(7); // the heartbeat's lookup reads "no ride" from the database...
    events.publish('ride.accepted', { ride_id: RIDE, passenger_id: 3, driver_id: 7, rejected_driver_ids: [], ride: {} as RideView });
    await new Promise((resolve) => setImmediate(resolve)); // ...the accept's event arrives first...
    finishRead(undefined); // ...then the stale read finishes
    expect(await read).toBeNull();
    expect(cache.peek(7)).toEqual({ rideId: RIDE, passengerId: 3 });
    cache.onModuleDestroy();
  });
});
