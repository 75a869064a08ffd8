import type { PendingLocation } from './drivers.repository';
import { MemoryLivePositionStore } from './memory-live-positions';

function at(driverId: number, latitude: number, longitude: number, ageMs = 0): PendingLocation {
  return { driverId, latitude, longitude, heading: null, speed: null, accuracy: null, at: new Date(Date.now() - ageMs) };
}

describe('MemoryLivePositionStore', () => {
  const BERLIN = { latitude: 52.52, longitude: 13.405 };

  it('finds drivers within the radius only, across grid cells', async () => {
    const store = new MemoryLivePositionStore(60_000);
    store.save(at(1, 52.52, 13.405));
    store.save(at(2, 52.5599, 13.405)); // ~4.4 km north, another cell
    store.save(at(3, 52.52, 13.48)); // ~5.1 km east
    store.save(at(4, 48.13, 11.57)); // Munich
    expect((await store.near(BERLIN, 5, 60_000)).sort()).toEqual([1, 2]);
    expect((await store.near(BERLIN, 6, 60_000)).sort()).toEqual([1, 2, 3]);
    // A radius wider than the occupied grid walks the entries instead of the cells.
    expect((await store.near(BERLIN, 600, 60_000)).sort()).toEqual([1, 2, 3, 4]);
  });

  it('moves a driver between cells and keeps only the latest position', async () => {
    const store = new MemoryLivePositionStore(60_000);
    store.save(at(1, 52.52, 13.405));
    store.save(at(1, 48.13, 11.57));
    expect(await store.near(BERLIN, 5, 60_000)).toEqual([]);
    expect(await store.near({ latitude: 48.13, longitude: 11.57 }, 5, 60_000)).toEqual([1]);
    expect(store.latest(1)).toMatchObject({ latitude: 48.13, longitude: 11.57 });
    expect(store.size).toBe(1);
  });

  it('matches across the antimeridian', async () => {
    const store = new MemoryLivePositionStore(60_000);
    store.save(at(1, -16.5, 179.999));
    expect(await store.near({ latitude: -16.5, longitude: -179.999 }, 5, 60_000)).toEqual([1]);
  });

  it('leaves out positions older than the max age and drops them lazily', async () => {
    const store = new MemoryLivePositionStore(1000);
    store.save(at(1, 52.52, 13.405, 1500));
    store.save(at(2, 52.52, 13.405));
    expect(await store.near(BERLIN, 5, 1000)).toEqual([2]);
    expect(store.latest(1)).toBeUndefined();
    expect(store.size).toBe(1);
    store.save(at(1, 52.52, 13.405));
    expect((await store.near(BERLIN, 5, 1000)).sort()).toEqual([1, 2]);
  });

  it('drops the expired drivers ahead of one heard from again, and keeps that one', async () => {
    const store = new MemoryLivePositionStore(1000);
    store.save(at(1, 52.52, 13.405, 1500));
    store.save(at(2, 52.52, 13.405, 1200));
    store.save(at(3, 52.52, 13.405, 1100));
    store.save(at(2, 52.5201, 13.405)); // fresh again: moves behind 3
    expect(await store.near(BERLIN, 5, 1000)).toEqual([2]);
    expect(store.size).toBe(1);
    expect(store.latest(2)).toMatchObject({ latitude: 52.5201 });
  });

  it('stays within its size bound, forgetting the driver heard from longest ago', async () => {
    const store = new MemoryLivePositionStore(60_000, 3);
    for (const id of [1, 2, 3]) store.save(at(id, 52.52, 13.405));
    store.save(at(1, 52.52, 13.405)); // heard from again: now the newest
    store.save(at(4, 52.52, 13.405));
    expect(store.size).toBe(3);
    expect((await store.near(BERLIN, 5, 60_000)).sort()).toEqual([1, 3, 4]);
  });
});
