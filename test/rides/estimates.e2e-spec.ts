import { PromoCodesService } from '../../src/modules/pricing/promos/promo-codes.service';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/*
 * Hand-computed figures (road factor 1.3, 30 km/h, earth radius 6371 km):
 * (0,0) → (0.1,0): great circle 11.1195 km × 1.3 = 14.46 km; 14.46 / 30 × 60 = 28.92 → 29 min.
 * (0.1,0) → (0.05,0): 5.5597 × 1.3 = 7.23 km → 14 min.   (0,0) → (0.001,0): 0.14 km → 0 min.
 * Economy: base 2.50, 1.20/km, 0.25/min, minimum 6.00. Business: 6.00, 2.40/km, 0.55/min.
 * Delivery: 3.00, 1.00/km, 0.20/min.
 */
const A = { address: 'A', latitude: 0, longitude: 0 };
const B = { address: 'B', latitude: 0.1, longitude: 0 };
const C = { address: 'C', latitude: 0.05, longitude: 0 };
const NEAR_A = { address: 'A2', latitude: 0.001, longitude: 0 };
/** Codes made by the test itself, as the CLI would (audited with no operator). */
const SET_UP = { actorId: null, reason: 'Set up by the test' };

describe('POST /api/v1/rides/estimate', () => {
  let t: TestApp;
  let passenger: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    passenger = await createUser(t);
  });
  afterAll(() => t.close());

  const estimate = (payload: object) => t.request({ method: 'POST', url: '/api/v1/rides/estimate', token: passenger.accessToken, payload });
  const base = { pickup: A, dropoff: B, vehicle_category_id: 1, passenger_count: 1, children: 0 };

  it('one_way: base + per km + per minute', async () => {
    const res = await estimate({ ...base, ride_type: 'one_way' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      vehicle_category_id: 1,
      ride_type: 'one_way',
      distance_km: 14.46,
      duration_minutes: 29,
      currency: 'USD',
      breakdown: {
        base: 2.5,
        distance: 17.35,
        time: 7.25,
        surge_multiplier: 1,
        subtotal: 27.1,
        minimum_fare: 6,
        minimum_fare_applied: false,
        discount: 0,
        total: 27.1,
      },
      promo: null,
    });
  });

  it('round_trip: both legs, back to the pickup or on to return_location', async () => {
    const back = (await estimate({ ...base, ride_type: 'round_trip' })).json();
    expect(back).toMatchObject({ distance_km: 28.92, duration_minutes: 58 });
    expect(back.breakdown).toMatchObject({ distance: 34.7, time: 14.5, total: 51.7 });

    const onward = (await estimate({ ...base, ride_type: 'round_trip', return_location: C })).json();
    expect(onward).toMatchObject({ distance_km: 21.69, duration_minutes: 43 });
    expect(onward.breakdown).toMatchObject({ distance: 26.03, time: 10.75, total: 39.28 });
  });

  it('per_hour: billed by the booked time only', async () => {
    const res = (await estimate({ ...base, ride_type: 'per_hour', duration_minutes: 120 })).json();
    expect(res).toMatchObject({ distance_km: 14.46, duration_minutes: 120 });
    expect(res.breakdown).toMatchObject({ base: 2.5, distance: 0, time: 30, subtotal: 32.5, total: 32.5 });
  });

  it('delivery: priced like one_way with the delivery category', async () => {
    const res = (await estimate({ ...base, ride_type: 'delivery', vehicle_category_id: 5 })).json();
    expect(res.breakdown).toMatchObject({ base: 3, distance: 14.46, time: 5.8, subtotal: 23.26, total: 23.26 });
  });

  it('applies the minimum fare', async () => {
    const res = (await estimate({ ...base, dropoff: NEAR_A, ride_type: 'one_way' })).json();
    expect(res).toMatchObject({ distance_km: 0.14, duration_minutes: 0 });
    expect(res.breakdown).toMatchObject({ subtotal: 2.67, minimum_fare_applied: true, total: 6 });
  });

  it('applies promo codes (percentage with cap, fixed) and says why one does not apply', async () => {
    const pct = (await estimate({ ...base, ride_type: 'one_way', promo_code: 'welcome10' })).json();
    expect(pct.promo).toEqual({ code: 'WELCOME10', applied: true, reason: null, discount: 2.71 });
    expect(pct.breakdown).toMatchObject({ discount: 2.71, total: 24.39 });

    const capped = (await estimate({ ...base, ride_type: 'one_way', vehicle_category_id: 3, promo_code: 'WELCOME10' })).json();
    expect(capped.breakdown).toMatchObject({ subtotal: 56.65, discount: 5, total: 51.65 });

    const fixed = (await estimate({ ...base, ride_type: 'one_way', promo_code: 'FLAT5' })).json();
    expect(fixed.breakdown).toMatchObject({ discount: 5, total: 22.1 });

    const promos = t.get(PromoCodesService);
    await promos.createPromoCode({ code: 'USEDUP', discountType: 'fixed', discountValue: 100, usageLimit: 0 }, SET_UP);
    await promos.createPromoCode({ code: 'LATER', discountType: 'percentage', discountValue: 5, validFrom: new Date(Date.now() + 86_400_000) }, SET_UP);
    const refusals: Array<[string, string]> = [
      ['SUMMER2020', 'Promo code has expired'],
      ['NOSUCHCODE', 'Promo code not found'],
      ['USEDUP', 'Promo code usage limit reached'],
      ['LATER', 'Promo code is not valid yet'],
    ];
    for (const [code, reason] of refusals) {
      const res = await estimate({ ...base, ride_type: 'one_way', promo_code: code });
      expect(res.statusCode).toBe(200);
      expect(res.json().promo).toEqual({ code, applied: false, reason, discount: 0 });
      expect(res.json().breakdown).toMatchObject({ discount: 0, total: 27.1 });
    }
  });

  it('without vehicle_category_id returns one estimate per active category that fits the passengers', async () => {
    const all = (await estimate({ pickup: A, dropoff: B, ride_type: 'one_way' })).json();
    expect(all.estimates.map((e: { vehicle_category_id: number }) => e.vehicle_category_id)).toEqual([1, 2, 3, 4, 5]);
    const group = (await estimate({ pickup: A, dropoff: B, ride_type: 'one_way', passenger_count: 6 })).json();
    expect(group.estimates.map((e: { vehicle_category_id: number }) => e.vehicle_category_id)).toEqual([4]);
  });

  it.each([
    ['pickup.latitude', { pickup: { ...A, latitude: 91 } }],
    ['dropoff.longitude', { dropoff: { ...B, longitude: -181 } }],
    ['pickup.address', { pickup: { latitude: 0, longitude: 0 } }],
    ['ride_type', { ride_type: 'teleport' }],
    ['vehicle_category_id', { vehicle_category_id: 99 }],
    ['passenger_count', { passenger_count: 5 }],
    ['children', { passenger_count: 2, children: 3 }],
    ['duration_minutes', { ride_type: 'per_hour' }],
    ['duration_minutes', { duration_minutes: 60 }],
    ['return_location', { return_location: C }],
    ['return_scheduled_at', { ride_type: 'round_trip', return_scheduled_at: '2020-01-01T00:00:00Z' }],
    ['end_scheduled_at', { end_scheduled_at: new Date(Date.now() + 3_600_000).toISOString() }],
    ['payment_method', { payment_method: 'bitcoin' }],
    ['surprise', { surprise: true }],
  ])('400 naming %s', async (field, change) => {
    const res = await estimate({ ...base, ride_type: 'one_way', ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('reports a missing field as missing first, before its bounds (the first message is the one apps show)', async () => {
    const res = await estimate({ ...base, ride_type: 'one_way', pickup: { latitude: 0, longitude: 0 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('pickup.address should not be empty (and 2 more)');
    expect(res.json().details).toEqual([
      { field: 'pickup.address', message: 'pickup.address should not be empty' },
      { field: 'pickup.address', message: 'pickup.address must be a string' },
      { field: 'pickup.address', message: 'pickup.address must be shorter than or equal to 300 characters' },
    ]);
  });

  it('a promo that stops applying between estimate and booking is refused with its real reason, on the database clock', async () => {
    const promos = t.get(PromoCodesService);
    const expiring = await promos.createPromoCode({ code: 'BRIEFLY', discountType: 'fixed', discountValue: 100 }, SET_UP);
    const used = await promos.createPromoCode({ code: 'ONCEONLY', discountType: 'fixed', discountValue: 100, usageLimit: 1 }, SET_UP);
    await t.db.query(`UPDATE promo_codes SET valid_until = now() - interval '1 second' WHERE id = $1`, [expiring.id]);
    await t.db.query(`UPDATE promo_codes SET used_count = 1 WHERE id = $1`, [used.id]);
    const reasons = await t.db.transaction((m) => Promise.all([promos.redeem(expiring.id, m), promos.redeem(used.id, m)]));
    expect(reasons).toEqual(['Promo code has expired', 'Promo code usage limit reached']);
    const fresh = await promos.createPromoCode({ code: 'STILLGOOD', discountType: 'fixed', discountValue: 100 }, SET_UP);
    expect(await t.db.transaction((m) => promos.redeem(fresh.id, m))).toBeNull();
  });
});
