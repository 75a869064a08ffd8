import type { AppConfig } from '../../../config/app-config';
import type { SurgeDemandPort, SurgeSupplyPort } from '../surge-signals.port';
import { rawSurge, SURGE_SIGNALS_REFRESH_MS, SURGE_SMOOTHING_SECONDS, SurgeService } from './surge.service';
import { computeFare } from '../fares/fare-calculator';

const PICKUP = { latitude: 52.52, longitude: 13.405 };

/** A plain object standing in for the live index and the matcher. */
function market(open: number, available: number) {
  const calls: Array<{ radiusKm: number; categoryId: number }> = [];
  const signals = {
    open,
    available,
    countOpenRequestsNear: (_p: unknown, radiusKm: number, categoryId: number) => {
      calls.push({ radiusKm, categoryId });
      return signals.open;
    },
    countAvailableDriversNear: () => signals.available,
  };
  return { signals: signals as typeof signals & SurgeDemandPort & SurgeSupplyPort, calls };
}

function surgeService(signals: SurgeDemandPort & SurgeSupplyPort, cap = 2): SurgeService {
  return new SurgeService(signals, signals, { surgeMaxMultiplier: cap, matchingRadiusKm: 5 } as AppConfig);
}

describe('rawSurge', () => {
  it('is 1 when calm, grows with requests per free driver, and stops at the cap', () => {
    expect(rawSurge(0, 0, 2)).toBe(1);
    expect(rawSurge(3, 10, 2)).toBe(1);
    expect(rawSurge(1, 1, 2)).toBe(1);
    expect(rawSurge(3, 1, 2)).toBe(1.5);
    expect(rawSurge(50, 0, 2)).toBe(2);
    expect(rawSurge(50, 0, 1.3)).toBe(1.3);
  });
});

describe('SurgeService', () => {
  it('reads the port with the matching radius and the category, and shows 2 decimals', () => {
    const { signals, calls } = market(4, 2);
    const surge = surgeService(signals);
    expect(surge.multiplierAt(PICKUP, 3, 0)).toBe(1.33);
    expect(calls).toEqual([{ radiusKm: 5, categoryId: 3 }]);
  });

  it('is 1.00 with no demand and no supply (the port before issue 17)', () => {
    expect(surgeService(market(0, 0).signals).multiplierAt(PICKUP, 1, 0)).toBe(1);
  });

  it('never exceeds SURGE_MAX_MULTIPLIER, and 1.0 turns surge off', () => {
    expect(surgeService(market(100, 0).signals, 1.8).multiplierAt(PICKUP, 1, 0)).toBe(1.8);
    const off = market(100, 0);
    expect(surgeService(off.signals, 1).multiplierAt(PICKUP, 1, 0)).toBe(1);
    expect(off.calls).toHaveLength(0);
  });

  it('counts demand and supply once a second per cell, not on every estimate', () => {
    const { signals, calls } = market(4, 2);
    const surge = surgeService(signals);
    expect(surge.multiplierAt(PICKUP, 1, 0)).toBe(1.33);
    signals.open = 100;
    expect(surge.multiplierAt(PICKUP, 1, SURGE_SIGNALS_REFRESH_MS - 1)).toBe(1.33);
    expect(calls).toHaveLength(1);
    surge.multiplierAt(PICKUP, 1, SURGE_SIGNALS_REFRESH_MS);
    expect(calls).toHaveLength(2); // counted again: the new demand is in
    expect(surge.multiplierAt(PICKUP, 1, 31_000)).toBeGreaterThan(1.5);
  });

  it('smooths a sudden change over time instead of flapping', () => {
    const { signals } = market(0, 5);
    const surge = surgeService(signals);
    expect(surge.multiplierAt(PICKUP, 1, 0)).toBe(1);
    signals.open = 100; // a spike of demand: raw 2.00
    signals.available = 0;
    expect(surge.multiplierAt(PICKUP, 1, 1000)).toBeCloseTo(1 + (1 - Math.exp(-1 / SURGE_SMOOTHING_SECONDS)), 2);
    const oneTau = surge.multiplierAt(PICKUP, 1, SURGE_SMOOTHING_SECONDS * 1000);
    expect(oneTau).toBeGreaterThan(1.5);
    expect(oneTau).toBeLessThan(1.7);
    signals.open = 0; // the spike is gone for a moment: the price eases, it does not drop
    signals.available = 5;
    const after = surge.multiplierAt(PICKUP, 1, SURGE_SMOOTHING_SECONDS * 1000 + 1000);
    expect(after).toBeGreaterThan(1.5);
    expect(surge.multiplierAt(PICKUP, 1, SURGE_SMOOTHING_SECONDS * 10_000)).toBe(1);
  });

  it('keeps each area and category apart', () => {
    const { signals } = market(100, 0);
    const surge = surgeService(signals);
    expect(surge.multiplierAt(PICKUP, 1, 0)).toBe(2);
    signals.open = 0;
    expect(surge.multiplierAt({ latitude: 48.1, longitude: 11.5 }, 1, 1000)).toBe(1);
    expect(surge.multiplierAt(PICKUP, 2, 1000)).toBe(1);
    expect(surge.multiplierAt(PICKUP, 1, 1000)).toBeGreaterThan(1.9);
  });
});

describe('SurgeService cell memory', () => {
  it('forgets the least recently priced cell first when full (a forgotten cell starts again from the raw value)', () => {
    const { signals } = market(100, 0); // raw 2.00
    const surge = surgeService(signals);
    const cellAt = (i: number) => ({ latitude: 10.005 + Math.floor(i / 1000) * 0.01, longitude: 10.005 + (i % 1000) * 0.02 }); // cells are ~0.0102° wide here
    surge.multiplierAt(cellAt(0), 1, 0);
    surge.multiplierAt(cellAt(1), 1, 0);
    for (let i = 2; i < 20_000; i++) surge.multiplierAt(cellAt(i), 1, 0); // full: 20,000 cells
    signals.open = 0; // raw 1.00 from now on
    expect(surge.multiplierAt(cellAt(0), 1, 1000)).toBe(1.98); // smoothed: remembered, and now the most recent
    surge.multiplierAt(cellAt(20_000), 1, 1000); // one more cell: the oldest (cell 1) goes
    expect(surge.multiplierAt(cellAt(0), 1, 1000)).toBe(1.98);
    expect(surge.multiplierAt(cellAt(1), 1, 1000)).toBe(1); // forgotten: raw again
    expect(surge.multiplierAt(cellAt(2), 1, 1000)).toBe(1); // cell 1 came back and pushed cell 2 out
    expect(surge.multiplierAt(cellAt(3), 1, 1000)).toBe(1);
    expect(surge.multiplierAt(cellAt(19_999), 1, 1000)).toBe(1.98);
  });
});

describe('computeFare with surge', () => {
  const economy = { id: 1, baseFareMinor: 250, perKmRateMinor: 120, perMinuteRateMinor: 25, minimumFareMinor: 600 };

  it('multiplies the distance and time parts only', () => {
    const calm = computeFare({ category: economy, rideType: 'one_way', legs: [{ distanceKm: 10, durationMinutes: 20 }] });
    const busy = computeFare({ category: economy, rideType: 'one_way', legs: [{ distanceKm: 10, durationMinutes: 20 }], surgeMultiplier: 1.5 });
    expect(calm).toMatchObject({ baseMinor: 250, distanceMinor: 1200, timeMinor: 500, surgeMultiplier: 1, totalMinor: 1950 });
    expect(busy).toMatchObject({ baseMinor: 250, distanceMinor: 1800, timeMinor: 750, surgeMultiplier: 1.5, totalMinor: 2800 });
  });
});
