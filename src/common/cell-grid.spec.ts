import { CellGrid, chordOfKm } from './cell-grid';
import { EARTH_RADIUS_KM, haversineKm } from './geo';

/** A deterministic random sequence (the spec must fail the same way twice). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A point `km` from `from` in direction `bearing` (radians), on the sphere. */
function destination(from: { latitude: number; longitude: number }, km: number, bearing: number): { latitude: number; longitude: number } {
  const rad = Math.PI / 180;
  const d = km / EARTH_RADIUS_KM;
  const lat1 = from.latitude * rad;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing));
  const lng2 = from.longitude * rad + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { latitude: lat2 / rad, longitude: ((((lng2 / rad + 180) % 360) + 360) % 360) - 180 };
}

describe('CellGrid', () => {
  it('puts a point in one cell, the same on both sides of the antimeridian, with keys below keyLimit', () => {
    const grid = new CellGrid(0.01);
    expect(grid.cellOf(52.52, 13.405)).toBe(grid.cellOf(52.52, 13.405));
    expect(grid.cellOf(52.52, 13.405)).not.toBe(grid.cellOf(52.54, 13.405));
    expect(grid.cellOf(-16.5, 180)).toBe(grid.cellOf(-16.5, -180));
    for (const [lat, lng] of [
      [90, 180],
      [-90, -180],
      [0, 0],
      [89.999, 179.999],
    ] as const) {
      const key = grid.cellOf(lat, lng);
      expect(Number.isSafeInteger(key) && key >= 0 && key < grid.keyLimit).toBe(true);
    }
    // Few columns next to the poles (cells about as wide as tall): opposite longitudes can share none, nearby ones one.
    expect(grid.cellOf(89.999, 10)).toBe(grid.cellOf(89.999, 11));
  });

  it('refuses cells finer than its keys allow', () => {
    expect(() => new CellGrid(0.005)).toThrow(/outside/);
  });

  it.each([0.01, 0.02, 0.05, 0.1])('visits, once each, the cell of every point within the radius, with a bound no larger than its chord (%s°)', (cellDeg) => {
    const grid = new CellGrid(cellDeg);
    const next = random(Math.round(cellDeg * 1000));
    const centres = [
      { latitude: 52.52, longitude: 13.405 },
      { latitude: -16.5, longitude: 179.99 },
      { latitude: 89.9, longitude: 0 },
      { latitude: -89.95, longitude: 45 },
      { latitude: 0, longitude: -180 },
    ];
    for (let i = 0; i < 40; i += 1) centres.push({ latitude: next() * 180 - 90, longitude: next() * 360 - 180 });
    for (const centre of centres) {
      const radiusKm = 0.5 + next() * 30;
      const bounds = new Map<number, number>();
      // Thousands of cells per centre: collected and checked once (an expect per cell took seconds).
      const repeated: number[] = [];
      const visited = grid.forEachCellWithin(centre, radiusKm, (cell, bound) => {
        if (bounds.has(cell)) repeated.push(cell);
        bounds.set(cell, bound);
      });
      expect(repeated).toEqual([]);
      expect(visited).toBe(bounds.size);
      expect(grid.countCellsWithin(centre, radiusKm)).toBeGreaterThanOrEqual(visited);
      const misses: string[] = [];
      for (let k = 0; k < 60; k += 1) {
        const p = destination(centre, radiusKm * Math.sqrt(next()), next() * 2 * Math.PI);
        const km = haversineKm(centre, p);
        const bound = bounds.get(grid.cellOf(p.latitude, p.longitude));
        if (km > radiusKm + 1e-6) misses.push(`${p.latitude},${p.longitude} is ${km} km away, outside ${radiusKm}`);
        else if (bound === undefined) misses.push(`the cell of ${p.latitude},${p.longitude} was not visited`);
        else if (bound > chordOfKm(km) + 1e-9) misses.push(`the bound ${bound} of ${p.latitude},${p.longitude} exceeds its chord ${chordOfKm(km)}`);
      }
      expect(misses).toEqual([]);
    }
  });

  it('visits, once each, the cell of every point in a box, and stops when told', () => {
    const grid = new CellGrid(0.02);
    const next = random(7);
    for (let i = 0; i < 30; i += 1) {
      const minLatitude = next() * 170 - 85;
      const minLongitude = next() * 350 - 180;
      const box = { minLatitude, minLongitude, maxLatitude: minLatitude + next() * 0.5, maxLongitude: Math.min(180, minLongitude + next() * 0.5) };
      const cells = new Set<number>();
      const repeated: number[] = [];
      grid.forEachCellInBox(box, (cell) => {
        if (cells.has(cell)) repeated.push(cell);
        cells.add(cell);
        return true;
      });
      expect(repeated).toEqual([]);
      expect(grid.countCellsInBox(box)).toBe(cells.size);
      const missed: string[] = [];
      for (let k = 0; k < 50; k += 1) {
        const latitude = box.minLatitude + next() * (box.maxLatitude - box.minLatitude);
        const longitude = box.minLongitude + next() * (box.maxLongitude - box.minLongitude);
        if (!cells.has(grid.cellOf(latitude, longitude))) missed.push(`${latitude},${longitude}`);
      }
      expect(missed).toEqual([]);
      let visits = 0;
      grid.forEachCellInBox(box, () => (visits += 1) < 2);
      expect(visits).toBe(Math.min(2, cells.size));
    }
  });

  it('keeps a search small: a 5 km radius visits tens of 1 km cells, not the row', () => {
    const grid = new CellGrid(0.01);
    const visited = grid.forEachCellWithin({ latitude: 52.52, longitude: 13.405 }, 5, () => undefined);
    expect(visited).toBeGreaterThan(50);
    expect(visited).toBeLessThan(150);
  });
});
