import type { PendingLocation } from './drivers.repository';
import { MemoryLivePositionStore } from './memory-live-positions';

function at(driverId: number, latitude: number, longitude: number, ageMs = 0): PendingLocation {
  return { driverId, latitude, longitude, heading: null, speed: null, accuracy: null, at: new Date(Date.now() - ageMs) };
}

describe('MemoryLivePositionStore', () => {
  it('keeps only the latest position of each driver', () => {
    const store = new MemoryLivePositionStore(60_000);
    store.save(at(1, 52.52, 13.405));
    store.save(at(1, 48.13, 11.57));
    store.save(at(2, -16.5, 179.999));
    expect(store.latest(1)).toMatchObject({ latitude: 48.13, longitude: 11.57 });
    expect(store.latest(2)).toMatchObject({ latitude: -16.5, longitude: 179.999 });
    expect(store.latest(3)).toBeUndefined();
    expect(store.size).toBe(2);
  });

  it('prune drops the positions past the max age, oldest first, and keeps one heard from again', async () => {
    const store = new MemoryLivePositionStore(1000);
    store.save(at(1, 52.52, 13.405, 1500));
    store.save(at(2, 52.52, 13.405, 1200));
    store.save(at(3, 52.52, 13.405, 1100));
    store.save(at(2, 52.5201, 13.405)); // fresh again: moves behind 3
    await store.prune();
    expect(store.size).toBe(1);
    expect(store.latest(1)).toBeUndefined();
    expect(store.latest(2)).toMatchObject({ latitude: 52.5201 });
  });

  it('stays within its size bound, forgetting the driver heard from longest ago (reading does not count)', () => {
    const store = new MemoryLivePositionStore(60_000, 3);
    for (const id of [1, 2, 3]) store.save(at(id, 52.52, 13.405));
    store.save(at(1, 52.52, 13.405)); // heard from again: now the newest
    expect(store.latest(2)).toBeDefined(); // read, not heard: still the oldest
    store.save(at(4, 52.52, 13.405));
    expect(store.size).toBe(3);
    expect([1, 2, 3, 4].filter((id) => store.latest(id) !== undefined)).toEqual([1, 3, 4]);
  });
});
