import { haversineKm } from '../../../common/geo';
import { AvailableDrivers, NearQuery } from './available-drivers';

const BERLIN = { latitude: 52.52, longitude: 13.405 };
const NOW = 1_800_000_000_000;

function query(overrides: Partial<NearQuery> = {}): NearQuery {
  return { point: BERLIN, radiusKm: 5, vehicleCategoryId: 1, heardSince: NOW - 60_000, freeOnly: false, ...overrides };
}

function online(drivers: AvailableDrivers, id: number, vehicleCategoryId: number | null = 1): void {
  drivers.setAvailability(id, { online: true, approved: true, vehicleCategoryId });
}

describe("AvailableDrivers.inBox (the operators' live view)", () => {
  const box = { minLatitude: 52.4, maxLatitude: 52.6, minLongitude: 13.3, maxLongitude: 13.5 };
  const world = { minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180 };

  it('every driver heard recently in the box (edges included), whatever their availability, with their ride', () => {
    const drivers = new AvailableDrivers();
    online(drivers, 1);
    drivers.heard(1, { latitude: 52.52, longitude: 13.4, atMs: NOW });
    drivers.setAvailability(2, { online: false, approved: false, vehicleCategoryId: 1 });
    drivers.heard(2, { latitude: 52.6, longitude: 13.5, atMs: NOW });
    drivers.heard(3, { latitude: 52.5, longitude: 13.4, atMs: NOW - 61_000 }); // stale
    drivers.heard(4, { latitude: 48.85, longitude: 2.35, atMs: NOW }); // Paris
    online(drivers, 5);
    drivers.heard(5, { latitude: 52.45, longitude: 13.35, atMs: NOW });
    drivers.assigned(5, 'ride-5');
    const found = drivers.inBox(box, NOW - 60_000, 100);
    expect(found.map((d) => d.driverId).sort()).toEqual([1, 2, 5]);
    expect(found.find((d) => d.driverId === 5)).toEqual({
      driverId: 5,
      latitude: 52.45,
      longitude: 13.35,
      atMs: NOW,
      rideId: 'ride-5',
      availability: { online: true, approved: true, vehicleCategoryId: 1 },
    });
    expect(
      drivers
        .inBox(world, NOW - 60_000, 100)
        .map((d) => d.driverId)
        .sort(),
    ).toEqual([1, 2, 4, 5]);
  });

  it('stops at the limit, by the cells or by every cell', () => {
    const drivers = new AvailableDrivers();
    for (let id = 1; id <= 50; id += 1) drivers.heard(id, { latitude: 52.4 + id / 500, longitude: 13.4, atMs: NOW });
    expect(drivers.inBox(box, NOW - 60_000, 9)).toHaveLength(9);
    expect(drivers.inBox(world, NOW - 60_000, 11)).toHaveLength(11);
    expect(drivers.inBox(box, NOW - 60_000, 100)).toHaveLength(50);
  });
});

describe('AvailableDrivers', () => {
  it('keeps online, approved drivers of the category (or of none) heard recently within the radius', () => {
    const drivers = new AvailableDrivers();
    const at = (latitude: number, atMs = NOW) => ({ latitude, longitude: BERLIN.longitude, atMs });
    online(drivers, 1);
    drivers.heard(1, at(52.53));
    online(drivers, 2, null);
    drivers.heard(2, at(52.52));
    online(drivers, 3, 2); // another category
    drivers.heard(3, at(52.52));
    online(drivers, 4);
    drivers.heard(4, at(52.6)); // 8.9 km north
    drivers.setAvailability(5, { online: false, approved: true, vehicleCategoryId: 1 });
    drivers.heard(5, at(52.52));
    drivers.setAvailability(6, { online: true, approved: false, vehicleCategoryId: 1 });
    drivers.heard(6, at(52.52));
    online(drivers, 7);
    drivers.heard(7, at(52.52, NOW - 61_000)); // stale
    drivers.heard(8, at(52.52)); // availability never heard of: not matched
    online(drivers, 9); // no position

    expect(drivers.near(query()).sort()).toEqual([1, 2]);
    expect(drivers.countNear(query())).toBe(2);
    expect(drivers.near(query({ radiusKm: 10 })).sort()).toEqual([1, 2, 4]);
  });

  it('keeps the newer of two positions, whatever order they arrive in, and moves the driver between cells', () => {
    const drivers = new AvailableDrivers();
    online(drivers, 1);
    drivers.heard(1, { latitude: 40, longitude: -3.7, atMs: NOW });
    drivers.heard(1, { ...BERLIN, atMs: NOW - 1000 });
    expect(drivers.near(query())).toEqual([]);
    drivers.heard(1, { ...BERLIN, atMs: NOW + 1000 });
    expect(drivers.near(query())).toEqual([1]);
    expect(drivers.near(query({ point: { latitude: 40, longitude: -3.7 } }))).toEqual([]);
  });

  it('counts a driver on a ride as told but not as available, until that ride (not an older one) ends', () => {
    const drivers = new AvailableDrivers();
    online(drivers, 1);
    drivers.heard(1, { ...BERLIN, atMs: NOW });
    drivers.assigned(1, 'ride-a');
    expect(drivers.near(query())).toEqual([1]);
    expect(drivers.countNear(query({ freeOnly: true }))).toBe(0);
    drivers.assigned(1, 'ride-b');
    drivers.released(1, 'ride-a');
    expect(drivers.countNear(query({ freeOnly: true }))).toBe(0);
    drivers.released(1, 'ride-b');
    expect(drivers.countNear(query({ freeOnly: true }))).toBe(1);
  });

  it('follows category changes and forgets a position on demand', () => {
    const drivers = new AvailableDrivers();
    online(drivers, 1);
    drivers.heard(1, { ...BERLIN, atMs: NOW });
    drivers.setCategory(1, 2);
    expect(drivers.near(query())).toEqual([]);
    expect(drivers.near(query({ vehicleCategoryId: 2 }))).toEqual([1]);
    drivers.forgetPosition(1);
    expect(drivers.near(query({ vehicleCategoryId: 2 }))).toEqual([]);
  });

  it('reconciles: drivers missing from the reload go offline and lose stale assignments, except those an event just changed', () => {
    const drivers = new AvailableDrivers();
    for (const id of [1, 2, 3]) {
      online(drivers, id);
      drivers.heard(id, { ...BERLIN, atMs: NOW });
      drivers.assigned(id, `ride-${id}`);
    }
    const keep = (id: number) => id === 3;
    drivers.offlineUnless(new Set([1]), keep);
    drivers.replaceAssignments(new Map([[2, 'ride-2']]), keep);
    expect(drivers.availabilityOf(2)?.online).toBe(false);
    expect(drivers.availabilityOf(3)?.online).toBe(true);
    expect([drivers.rideOf(1), drivers.rideOf(2), drivers.rideOf(3)]).toEqual([undefined, 'ride-2', 'ride-3']);
    expect(drivers.near(query()).sort()).toEqual([1, 3]);
  });

  it('prunes stale positions and entries with nothing left to say', () => {
    const drivers = new AvailableDrivers();
    drivers.setAvailability(1, { online: false, approved: true, vehicleCategoryId: 1 });
    drivers.heard(1, { ...BERLIN, atMs: NOW - 120_000 });
    online(drivers, 2);
    drivers.heard(2, { ...BERLIN, atMs: NOW - 120_000 });
    drivers.prune(NOW - 60_000);
    expect(drivers.size).toBe(1);
    expect(drivers.positionOf(2)).toBeUndefined();
    expect(drivers.availabilityOf(2)?.online).toBe(true);
  });

  it('answers a search wider than the occupied grid by walking the occupied cells', () => {
    const drivers = new AvailableDrivers();
    online(drivers, 1);
    drivers.heard(1, { latitude: 52.9, longitude: 13.405, atMs: NOW });
    expect(drivers.near(query({ radiusKm: 50 }))).toEqual([1]);
    expect(drivers.near(query({ radiusKm: 40 }))).toEqual([]);
  });

  it('finds exactly the drivers a brute-force distance check finds, across the antimeridian and at high latitudes', () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (const centre of [BERLIN, { latitude: -16.5, longitude: 179.99 }, { latitude: 69.65, longitude: 18.96 }]) {
      const drivers = new AvailableDrivers();
      const positions = new Map<number, { latitude: number; longitude: number; atMs: number }>();
      for (let id = 1; id <= 2000; id += 1) {
        const longitude = centre.longitude + (random() - 0.5) * 2;
        const position = { latitude: centre.latitude + (random() - 0.5) * 0.8, longitude: longitude > 180 ? longitude - 360 : longitude, atMs: NOW };
        online(drivers, id);
        drivers.heard(id, position);
        positions.set(id, position);
      }
      for (const radiusKm of [0.5, 5, 20, 50]) {
        const expected = [...positions].filter(([, p]) => haversineKm(centre, p) <= radiusKm).map(([id]) => id);
        expect(drivers.near(query({ point: centre, radiusKm })).sort((a, b) => a - b)).toEqual(expected);
      }
    }
  });
});
