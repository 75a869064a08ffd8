import type { AppConfig } from '../../../config/app-config';
import type { DriverRatingsPort, PassengerRatingsPort } from '../rating-averages.port';
import type { LockedRide } from '../transitions/ride-writes.repository';
import { RateRideHandler } from './rate-ride.handler';
import type { AddRatingSql, RideRatingsRepository } from './ride-ratings.repository';

// The view's JSON is the read model's business (its own specs); here a row stands for itself.
jest.mock('../read-models/ride-view', () => ({ ...jest.requireActual('../read-models/ride-view'), rideToJson: (row: object) => ({ ...row }) }));

const CREATED = new Date('2030-01-01T10:00:00.000Z');

/**
 * The rating's own part of its one statement: what act composes (the owners' parts for the
 * averages) and how settle refuses from what the statement found, or answers. The statement itself
 * runs against PostgreSQL in test/rides/ratings.
 */
function setup() {
  const ratings = {
    rateWhere: jest.fn((_rating: unknown, averages: { driver: AddRatingSql; passenger: AddRatingSql }) =>
      [averages.driver('DRIVER', '$5'), averages.passenger('PASSENGER', '$5')].join('; '),
    ),
  };
  const passengers = { addPassengerRatingSql: jest.fn((id: string, stars: string) => `users ${id} + ${stars}`) };
  const drivers = { addDriverRatingSql: jest.fn((id: string, stars: string) => `drivers ${id} + ${stars}`) };
  const handler = new RateRideHandler(
    ratings as unknown as RideRatingsRepository,
    passengers as unknown as PassengerRatingsPort,
    drivers as unknown as DriverRatingsPort,
    { ratingWindowDays: 7 } as AppConfig,
  );
  const ride = { id: 'r1', status: 'completed', passenger_id: 7, driver_id: 8 } as LockedRide;
  const settle = (acted: object | undefined) => handler.settle({ command: { type: 'rate', stars: 4, comment: 'Fine' }, ride }, acted as never);
  return { handler, ratings, settle };
}

const WRITTEN = {
  already_rated: false,
  open: true,
  rated_user_id: 8,
  rated_by: 'passenger',
  created_at_rating: CREATED,
  new_average: 4.5,
  id: 'r1',
  driver: { id: 8, rating: 5 },
  passenger: { id: 7, rating: 3 },
};

describe('RateRideHandler', () => {
  it('act: the rating CTEs, the window, and the drivers and users modules’ parts for the averages', () => {
    const { handler, ratings } = setup();
    const param = jest.fn(() => '$9');
    expect(handler.act({ type: 'rate', stars: 4, comment: 'Fine' }, { id: 7 }, 'ALLOWED', param)).toBe('drivers DRIVER + $5; users PASSENGER + $5');
    expect(ratings.rateWhere).toHaveBeenCalledWith({ stars: 4, comment: 'Fine', windowDays: 7 }, expect.any(Object), 'ALLOWED', param);
  });

  it('the passenger rated the driver: the rating as the answer; ride.rated carries the ride with the driver’s new average', () => {
    const { settle } = setup();
    const rating = { ride_id: 'r1', rated_by: 'passenger', stars: 4, comment: 'Fine', created_at: CREATED.toISOString() };
    expect(settle(WRITTEN)).toEqual({
      result: rating,
      event: {
        name: 'ride.rated',
        payload: {
          ride_id: 'r1',
          passenger_id: 7,
          driver_id: 8,
          rated_user_id: 8,
          rating,
          ride: expect.objectContaining({ id: 'r1', driver: { id: 8, rating: 4.5 } }),
        },
      },
    });
  });

  it('the driver rated the passenger: the passenger’s new average in the ride', () => {
    const { settle } = setup();
    const outcome = settle({ ...WRITTEN, rated_by: 'driver', rated_user_id: 7, new_average: 3.5 });
    expect(outcome).toMatchObject({
      result: { rated_by: 'driver' },
      event: { payload: { rated_user_id: 7, ride: { driver: { rating: 5 }, passenger: { rating: 3.5 } } } },
    });
  });

  it('a rated user whose account is gone: no average, the ride as it is', () => {
    const { settle } = setup();
    const outcome = settle({ ...WRITTEN, rated_user_id: null, new_average: null, driver: null });
    expect(outcome).toMatchObject({ result: { rated_by: 'passenger' }, event: { payload: { rated_user_id: null, ride: { driver: null } } } });
  });

  it.each([
    ['a second rating by one side', { already_rated: true, open: false }, 'RIDE_ALREADY_RATED'],
    ['a rating after the window', { open: false }, 'RATING_WINDOW_CLOSED'],
    ['a rating the primary key refused (a concurrent one won)', {}, 'RIDE_ALREADY_RATED'],
  ])('settle refuses %s, in that order', (_name, found, code) => {
    const { settle } = setup();
    const unwritten = { ...WRITTEN, rated_by: null, created_at_rating: null, new_average: null, id: null };
    expect(() => settle({ ...unwritten, ...found })).toThrow(expect.objectContaining({ code }));
  });
});
