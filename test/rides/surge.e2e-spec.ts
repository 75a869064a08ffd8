import { SurgeDemandPort, SurgeSupplyPort } from '../../src/modules/pricing/surge-signals.port';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { bookingBody, DROPOFF, PICKUP } from './ride-helpers';

/**
 * CONTRACT §11, surge, through the HTTP API. With no open request and no driver about, the ports'
 * real bindings (RidesService, DriversService) see no demand and no supply: every estimate is calm
 * (1.00). The busy market below is those bindings answering other counts (their methods replaced
 * for the test), which is exactly what SurgeService reads; the formula itself is unit-tested.
 */
describe('surge', () => {
  let t: TestApp;
  let passenger: TestUser;
  let demand: SurgeDemandPort;
  let supply: SurgeSupplyPort;
  beforeAll(async () => {
    t = await startTestApp(); // MIN_OFFER_PERCENT at its default, 70
    passenger = await createUser(t);
    demand = t.get(SurgeDemandPort);
    supply = t.get(SurgeSupplyPort);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => t.close());

  const estimate = async (overrides: object = {}) => {
    const res = await t.request({ method: 'POST', url: '/api/v1/rides/estimate', token: passenger.accessToken, payload: bookingBody(overrides) });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const book = (overrides: object) => t.request({ method: 'POST', url: '/api/v1/rides/book', token: passenger.accessToken, payload: bookingBody(overrides) });
  /** The same route moved east: a shift in longitude keeps every distance, so the calm fare is the same. */
  const shifted = (degrees: number) => ({
    pickup: { ...PICKUP, longitude: PICKUP.longitude + degrees },
    dropoff: { ...DROPOFF, longitude: DROPOFF.longitude + degrees },
  });
  const busy = () => {
    jest.spyOn(demand, 'countOpenRequestsNear').mockReturnValue(40);
    jest.spyOn(supply, 'countAvailableDriversNear').mockReturnValue(1);
  };

  it('is 1.00 in the breakdown while the port sees no demand and no supply, for one category and for the list', async () => {
    const one = await estimate();
    expect(one.breakdown.surge_multiplier).toBe(1);
    expect(one.breakdown.subtotal).toBeCloseTo(one.breakdown.base + one.breakdown.distance + one.breakdown.time, 2);
    const list = await estimate({ vehicle_category_id: undefined });
    expect(list.estimates.length).toBeGreaterThan(1);
    for (const e of list.estimates) expect(e.breakdown.surge_multiplier).toBe(1);
  });

  it('booking stores the multiplier computed at booking in estimate.breakdown (1.00 when calm)', async () => {
    const res = await book({});
    expect(res.statusCode).toBe(201);
    expect(res.json().estimate.breakdown.surge_multiplier).toBe(1);
    const cancelled = await t.request({ method: 'POST', url: `/api/v1/rides/${res.json().id}/cancel`, token: passenger.accessToken });
    expect(cancelled.statusCode).toBe(200);
  });

  it('in a busy area multiplies the distance and time parts only, up to SURGE_MAX_MULTIPLIER', async () => {
    const calm = await estimate(shifted(0.05));
    const area = shifted(0.1); // another smoothing cell, never priced before
    busy();
    const surged = await estimate(area);
    expect(surged.breakdown.surge_multiplier).toBe(2);
    expect(surged.breakdown.base).toBe(calm.breakdown.base);
    expect(surged.breakdown.distance).toBeCloseTo(calm.breakdown.distance * 2, 2);
    expect(surged.breakdown.time).toBeCloseTo(calm.breakdown.time * 2, 2);
    expect(surged.breakdown.total).toBeCloseTo(calm.breakdown.base + 2 * (calm.breakdown.distance + calm.breakdown.time), 2);
  });

  it('is smoothed: an area priced calm a moment ago does not jump when demand spikes', async () => {
    const area = shifted(0.2);
    expect((await estimate(area)).breakdown.surge_multiplier).toBe(1);
    busy();
    expect((await estimate(area)).breakdown.surge_multiplier).toBeLessThan(1.1);
  });

  it('booking stores the surged estimate, and offered_fare is bounded by that total (surge and promo included)', async () => {
    const area = shifted(0.3);
    const calm = await estimate(area);
    await t.db.query(`INSERT INTO promo_codes (code, discount_type, discount_value, usage_limit) VALUES ('SURGE1', 'fixed', 100, 10)`);
    busy();
    const quoted = await estimate({ ...shifted(0.4), promo_code: 'SURGE1' });
    expect(quoted.breakdown).toMatchObject({ surge_multiplier: 2, discount: 1 });
    // 70 % of the calm total would do without surge; at booking the surged, discounted total counts.
    const calmMinimum = Math.ceil(calm.breakdown.total * 70 - 1e-9) / 100;
    const refused = await book({ ...shifted(0.4), promo_code: 'SURGE1', offered_fare: calmMinimum });
    expect(refused.statusCode).toBe(400);
    const minimum = Math.ceil(quoted.breakdown.total * 70 - 1e-9) / 100;
    expect(refused.json().message).toBe(
      `offered_fare must be at least ${minimum.toFixed(2)} (70% of the estimated total ${quoted.breakdown.total.toFixed(2)})`,
    );
    const booked = await book({ ...shifted(0.4), promo_code: 'SURGE1', offered_fare: minimum });
    expect(booked.statusCode).toBe(201);
    expect(booked.json()).toMatchObject({ offered_fare: minimum, estimate: { breakdown: { surge_multiplier: 2, total: quoted.breakdown.total } } });
    const [row] = await t.db.query(`SELECT estimate->'surgeMultiplier' AS surge, estimated_fare_minor FROM rides WHERE id = $1`, [booked.json().id]);
    expect(row).toEqual({ surge: 2, estimated_fare_minor: Math.round(quoted.breakdown.total * 100) });
  });
});
