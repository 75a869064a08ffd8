import { InProcessEventBus } from '../../../common/events/in-process-event-bus';
import type { AppConfig } from '../../../config/app-config';
import type { RideRequestFieldsDto } from '../dto/ride-request-fields.dto';
import type { VehicleCategoryEntity } from '../entities/vehicle-category.entity';
import type { PromoCodesService } from '../promos/promo-codes.service';
import type { SurgeService } from '../surge/surge.service';
import type { VehicleCategoriesRepository } from '../vehicle-categories.repository';
import { VehicleCategoriesService } from '../vehicle-categories.service';
import { FareEstimatesService } from './fare-estimates.service';
import type { RoutingProvider } from './routing.provider';

const CONFIG = { vehicleCategoryCacheMs: 30_000, currency: 'USD' } as AppConfig;
const ECONOMY = {
  id: 1,
  isActive: true,
  maxPassengers: 4,
  baseFareMinor: 250,
  perKmRateMinor: 120,
  perMinuteRateMinor: 30,
  minimumFareMinor: 500,
} as VehicleCategoryEntity;
const REQUEST = {
  pickup: { address: 'A', latitude: 52.52, longitude: 13.405 },
  dropoff: { address: 'B', latitude: 52.5, longitude: 13.42 },
  ride_type: 'one_way',
  passenger_count: 1,
} as RideRequestFieldsDto;

/** The fare engine over the real category cache (cold until its first load) and a routing engine that answers at once. */
function engine(): FareEstimatesService {
  const categories = new VehicleCategoriesService(
    { findAllOrdered: () => Promise.resolve([ECONOMY]) } as unknown as VehicleCategoriesRepository,
    new InProcessEventBus(),
    CONFIG,
  );
  const routing = { route: () => ({ distanceKm: 3, durationMinutes: 8 }) } as RoutingProvider;
  const surge = { multiplierAt: () => 1 } as unknown as SurgeService;
  return new FareEstimatesService(categories, routing, {} as PromoCodesService, surge, CONFIG);
}

/** Calls without awaiting, so a synchronous throw is seen as one (it fails the test). */
function outcome(call: () => unknown): Promise<unknown> {
  const answer = call();
  expect(answer).toBeInstanceOf(Promise);
  return (answer as Promise<unknown>).then(
    () => 'resolved',
    (err: { code?: string; details?: unknown }) => ({ code: err.code, details: err.details }),
  );
}

describe('FareEstimatesService: a refusal is the same rejected promise with the categories cold or cached', () => {
  it.each([
    ['an unknown category', { ...REQUEST, vehicle_category_id: 99 }],
    ['a field the category refuses', { ...REQUEST, vehicle_category_id: 1, passenger_count: 9 }],
    ['a field the ride type refuses', { ...REQUEST, vehicle_category_id: 1, duration_minutes: 60 }],
  ])('%s', async (_label, dto) => {
    const fares = engine();
    const cold = await outcome(() => fares.estimate(dto));
    const warm = await outcome(() => fares.estimate(dto));
    expect(cold).not.toBe('resolved');
    expect(warm).toEqual(cold);
    expect(await outcome(() => fares.estimateFor(dto, dto.vehicle_category_id))).toEqual(cold);
  });

  it('answers a valid single-category estimate without a promise once the categories are cached', async () => {
    const fares = engine();
    const cold = fares.estimate({ ...REQUEST, vehicle_category_id: 1 });
    expect(cold).toBeInstanceOf(Promise);
    const loaded = await cold;
    const warm = fares.estimate({ ...REQUEST, vehicle_category_id: 1 });
    expect(warm).not.toBeInstanceOf(Promise);
    expect(warm).toEqual(loaded);
  });
});
