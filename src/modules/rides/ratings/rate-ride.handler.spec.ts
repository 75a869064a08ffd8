import type { AppConfig } from '../../../config/app-config';
import type { DriverRatingsPort, PassengerRatingsPort } from '../rating-averages.port';
import type { ChangeContext } from '../transitions/ride-command';
import type { LockedRide } from '../transitions/ride-writes.repository';
import { RateRideHandler } from './rate-ride.handler';
import type { RideRatingsRepository } from './ride-ratings.repository';

const CREATED = new Date('2030-01-01T10:00:00.000Z');

function setup(party: 'passenger' | 'driver', options: { rated?: boolean; open?: boolean; inserted?: boolean; ride?: Partial<LockedRide> } = {}) {
  const ratings = {
    stateOf: jest.fn(async () => ({ rated: options.rated ?? false, open: options.open ?? true })),
    insert: jest.fn(async () => (options.inserted === false ? undefined : CREATED)),
    recordOnRide: jest.fn(async () => undefined),
  };
  const passengers = { addPassengerRating: jest.fn(async () => undefined) };
  const drivers = { addDriverRating: jest.fn(async () => undefined) };
  const handler = new RateRideHandler(
    ratings as unknown as RideRatingsRepository,
    passengers as unknown as PassengerRatingsPort,
    drivers as unknown as DriverRatingsPort,
    { ratingWindowDays: 7 } as AppConfig,
  );
  const ctx = {
    command: { type: 'rate', stars: 4, comment: 'Fine' },
    party,
    ride: { id: 'r1', status: 'completed', passenger_id: 7, driver_id: 8, ...options.ride } as LockedRide,
    tx: 'tx',
    view: async () => ({ id: 'r1' }),
  } as unknown as ChangeContext<'rate'>;
  return { handler, ctx, ratings, passengers, drivers };
}

describe('RateRideHandler', () => {
  it('the passenger rates the driver: the rating row, the stars on the ride and the driver’s average', async () => {
    const { handler, ctx, ratings, drivers, passengers } = setup('passenger');
    const outcome = await handler.run(ctx);
    expect(ratings.stateOf).toHaveBeenCalledWith('r1', 'passenger', 7, 'tx');
    expect(ratings.insert).toHaveBeenCalledWith({ rideId: 'r1', ratedBy: 'passenger', raterId: 7, ratedUserId: 8, stars: 4, comment: 'Fine' }, 'tx');
    expect(ratings.recordOnRide).toHaveBeenCalledWith('r1', 'passenger', 4, 'tx');
    expect(drivers.addDriverRating).toHaveBeenCalledWith(8, 4, 'tx');
    expect(passengers.addPassengerRating).not.toHaveBeenCalled();
    const rating = { ride_id: 'r1', rated_by: 'passenger', stars: 4, comment: 'Fine', created_at: CREATED.toISOString() };
    expect(outcome).toEqual({
      result: rating,
      event: { name: 'ride.rated', payload: { ride_id: 'r1', passenger_id: 7, driver_id: 8, rated_user_id: 8, rating, ride: { id: 'r1' } } },
    });
  });

  it('the driver rates the passenger', async () => {
    const { handler, ctx, passengers, drivers } = setup('driver');
    await handler.run(ctx);
    expect(passengers.addPassengerRating).toHaveBeenCalledWith(7, 4, 'tx');
    expect(drivers.addDriverRating).not.toHaveBeenCalled();
  });

  it('a rated user whose account is gone gets no average', async () => {
    const { handler, ctx, drivers } = setup('passenger', { ride: { driver_id: null } });
    await handler.run(ctx);
    expect(drivers.addDriverRating).not.toHaveBeenCalled();
  });

  it.each([
    ['a second rating by one side', { rated: true, open: false }, 'RIDE_ALREADY_RATED'],
    ['a rating after the window', { open: false }, 'RATING_WINDOW_CLOSED'],
    ['a rating the primary key refused (a concurrent one won)', { inserted: false }, 'RIDE_ALREADY_RATED'],
  ])('refuses %s, in that order', async (_name, options, code) => {
    const { handler, ctx, ratings } = setup('passenger', options);
    await expect(handler.run(ctx)).rejects.toMatchObject({ code });
    expect(ratings.recordOnRide).not.toHaveBeenCalled();
  });
});
