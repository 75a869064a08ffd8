import type { AppConfig } from '../../../../config/app-config';
import type { RideView } from '../../read-models/ride-view';
import { RideError } from '../../rides.errors';
import type { CreateContext, RideCreateHandler, RideRequest } from '../ride-command';
import type { NewRide } from '../ride-writes.repository';
import { BookRideHandler, insertWithCode, newRideCode } from './book-ride.handler';

const RIDE_ID = '6f1c1a52-7d0e-4a47-9d7e-1a1f3c1b2e01';
const VIEW = { id: RIDE_ID, status: 'requested' } as RideView;
const REQUEST = { vehicleCategoryId: 2, pickup: { address: 'A', latitude: 52.5, longitude: 13.4 } } as RideRequest;
const CONFIG = { currency: 'EUR', rideRequestTtlMinutes: 10 } as AppConfig;

/** A create context whose inserts answer `outcomes` in turn (then the last again), recording what they were given. */
function context(outcomes: Array<{ live: boolean; view?: RideView }>) {
  const inserted: Array<{ ride: NewRide; unlessLive: boolean }> = [];
  const ctx = {
    command: { type: 'book', ride: REQUEST },
    actor: { id: 7 },
    rideId: RIDE_ID,
    tx: undefined,
    insert: jest.fn(async (ride: NewRide, unlessLive: boolean) => {
      inserted.push({ ride, unlessLive });
      return outcomes[Math.min(inserted.length, outcomes.length) - 1]!;
    }),
  };
  return { ctx: ctx as unknown as CreateContext<'book'>, inserted };
}

describe('newRideCode', () => {
  it('six characters no one misreads', () => {
    for (let i = 0; i < 200; i += 1) expect(newRideCode()).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/);
  });
});

describe('insertWithCode', () => {
  it('tries a fresh code after a collision', async () => {
    const { ctx, inserted } = context([{ live: false }, { live: false, view: VIEW }]);
    await expect(insertWithCode(ctx, {} as Omit<NewRide, 'rideCode'>, true)).resolves.toBe(VIEW);
    expect(inserted).toHaveLength(2);
    expect(inserted[0]!.ride.rideCode).not.toBe(inserted[1]!.ride.rideCode);
  });

  it('stops at a live ride', async () => {
    const { ctx, inserted } = context([{ live: true }]);
    await expect(insertWithCode(ctx, {} as Omit<NewRide, 'rideCode'>, true)).resolves.toBeUndefined();
    expect(inserted).toHaveLength(1);
  });

  it('gives up after eight collisions', async () => {
    const { ctx, inserted } = context([{ live: false }]);
    await expect(insertWithCode(ctx, {} as Omit<NewRide, 'rideCode'>, false)).resolves.toBeUndefined();
    expect(inserted).toHaveLength(8);
  });
});

describe('BookRideHandler', () => {
  it('inserts a ride now for the passenger, unless they have a live ride, and announces ride.requested with its pickup', async () => {
    const { ctx, inserted } = context([{ live: false, view: VIEW }]);
    const outcome = await new BookRideHandler(CONFIG).create(ctx);
    expect(inserted[0]).toMatchObject({
      unlessLive: true,
      ride: { id: RIDE_ID, passengerId: 7, currency: 'EUR', ttlMinutes: 10, pickupAt: null, dispatchAt: null },
    });
    expect(outcome).toEqual({
      result: VIEW,
      event: {
        name: 'ride.requested',
        payload: { ride_id: RIDE_ID, passenger_id: 7, vehicle_category_id: 2, pickup: { latitude: 52.5, longitude: 13.4 }, ride: VIEW },
      },
    });
  });

  it("refuses with the table's refusal while the passenger has a live ride", async () => {
    const { ctx } = context([{ live: true }]);
    await expect(new BookRideHandler(CONFIG).create(ctx)).rejects.toEqual(new RideError('ACTIVE_RIDE_EXISTS'));
  });

  it('commits by itself (nothing to hold until a commit)', () => {
    expect((new BookRideHandler(CONFIG) as RideCreateHandler<'book'>).transactional).toBeFalsy();
  });
});
