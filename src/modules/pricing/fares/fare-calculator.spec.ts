import { percentOf } from '../../../common/money';
import { computeFare } from './fare-calculator';

const economy = { id: 1, baseFareMinor: 250, perKmRateMinor: 120, perMinuteRateMinor: 25, minimumFareMinor: 600 };

describe('computeFare', () => {
  it('adds base, distance (km with 2 decimals, half up) and time', () => {
    const fare = computeFare({ category: economy, rideType: 'one_way', legs: [{ distanceKm: 14.46, durationMinutes: 29 }] });
    expect(fare).toMatchObject({ baseMinor: 250, distanceMinor: 1735, timeMinor: 725, subtotalMinor: 2710, totalMinor: 2710, minimumFareApplied: false });
  });

  it('per_hour bills the booked minutes only', () => {
    const fare = computeFare({ category: economy, rideType: 'per_hour', legs: [{ distanceKm: 14.46, durationMinutes: 29 }], bookedMinutes: 60 });
    expect(fare).toMatchObject({ distanceKm: 14.46, durationMinutes: 60, distanceMinor: 0, timeMinor: 1500, totalMinor: 1750 });
  });

  it('raises to the minimum fare before the discount', () => {
    const fare = computeFare({
      category: economy,
      rideType: 'one_way',
      legs: [{ distanceKm: 1, durationMinutes: 2 }],
      promo: { id: 1, code: 'X', discountType: 'fixed', discountValue: 100, maxDiscountMinor: null },
    });
    expect(fare).toMatchObject({ subtotalMinor: 420, minimumFareApplied: true, discountMinor: 100, totalMinor: 500 });
  });

  it('caps percentage discounts and never goes below zero', () => {
    const capped = computeFare({
      category: economy,
      rideType: 'one_way',
      legs: [{ distanceKm: 100, durationMinutes: 200 }],
      promo: { id: 1, code: 'P', discountType: 'percentage', discountValue: 50, maxDiscountMinor: 700 },
    });
    expect(capped.discountMinor).toBe(700);
    const free = computeFare({
      category: economy,
      rideType: 'one_way',
      legs: [{ distanceKm: 0, durationMinutes: 0 }],
      promo: { id: 1, code: 'F', discountType: 'fixed', discountValue: 10_000, maxDiscountMinor: null },
    });
    expect(free.totalMinor).toBe(0);
  });
});

describe('money rounding', () => {
  it('percentOf rounds half up on integers, whole or two-decimal percents', () => {
    expect(percentOf(1235, 10)).toBe(124);
    expect(percentOf(1225, 10)).toBe(123);
    expect(percentOf(1000, 12.5)).toBe(125);
    expect(percentOf(999, 0)).toBe(0);
    expect(percentOf(333, 33.33)).toBe(111);
    expect(percentOf(120, 1446)).toBe(1735); // a per-km rate times km in hundredths
  });
});
