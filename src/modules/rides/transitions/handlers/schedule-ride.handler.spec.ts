import type { AppConfig } from '../../../../config/app-config';
import type { RideView } from '../../read-models/ride-view';
import { RideError } from '../../rides.errors';
import type { CreateContext, RideRequest } from '../ride-command';
import type { NewRide, RideWritesRepository } from '../ride-writes.repository';
import { ScheduleRideHandler } from './schedule-ride.handler';

const RIDE_ID = '6f1c1a52-7d0e-4a47-9d7e-1a1f3c1b2e01';
const VIEW = { id: RIDE_ID, status: 'scheduled' } as RideView;
const CONFIG = { currency: 'EUR', rideRequestTtlMinutes: 10, dispatchLeadMinutes: 15, scheduledRidesPerPassenger: 2 } as AppConfig;

function setup(scheduled: number) {
  const inserted: Array<{ ride: NewRide; unlessLive: boolean }> = [];
  const writes = { lockScheduledCountOf: jest.fn(async () => scheduled) };
  const ctx = {
    command: { type: 'schedule', ride: {} as RideRequest, pickupAt: '2030-01-01T10:00:00.000Z' },
    actor: { id: 7 },
    rideId: RIDE_ID,
    tx: 'tx',
    insert: jest.fn(async (ride: NewRide, unlessLive: boolean) => {
      inserted.push({ ride, unlessLive });
      return { live: false, view: VIEW };
    }),
  } as unknown as CreateContext<'schedule'>;
  return { handler: new ScheduleRideHandler(writes as unknown as RideWritesRepository, CONFIG), ctx, inserted, writes };
}

describe('ScheduleRideHandler', () => {
  it('books for later, dispatched DISPATCH_LEAD_MINUTES before pickup, whatever live ride the passenger has', async () => {
    const { handler, ctx, inserted, writes } = setup(1);
    const outcome = await handler.create(ctx);
    expect(writes.lockScheduledCountOf).toHaveBeenCalledWith(7, 'tx');
    expect(inserted[0]).toMatchObject({
      unlessLive: false,
      ride: { passengerId: 7, pickupAt: '2030-01-01T10:00:00.000Z', dispatchAt: '2030-01-01T09:45:00.000Z' },
    });
    expect(outcome).toEqual({ result: VIEW, event: { name: 'ride.scheduled', payload: { ride_id: RIDE_ID, passenger_id: 7, ride: VIEW } } });
  });

  it('refuses at SCHEDULED_RIDES_PER_PASSENGER, before inserting', async () => {
    const { handler, ctx, inserted } = setup(2);
    await expect(handler.create(ctx)).rejects.toEqual(new RideError('SCHEDULED_RIDE_LIMIT'));
    expect(inserted).toHaveLength(0);
  });

  it('needs a transaction: the count holds its lock until the commit', () => {
    expect(setup(0).handler.transactional).toBe(true);
  });
});
