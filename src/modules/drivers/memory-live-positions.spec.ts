import type { PendingLocation } from './drivers.repository';
import { MemoryLivePositionStore } from './memory-live-positions';

function at(driverId: number, latitude: number, longitude: number, ageMs = 0): PendingLocation {
  return { driverId, latitude, longitude, heading: null, speed: null, accuracy: null, at: new Date(Date.now() - ageMs) };
}

describe('MemoryLivePositionStore', () => {
  it('keeps only the latest position of each driver', async () => {
    const store = new MemoryLivePositionStore(60_000, 1000);
    await store.save(at(1, 52.52, 13.405));
    await store.save(at(1, 48.13, 11.57));
    await store.save(at(2, -16.5, 179.999));
    expect(await store.latest(1)).toMatchObject({ latitude: 48.13, longitude: 11.57 });
    expect(await store.latest(2)).toMatchObject({ latitude: -16.5, longitude: 179.999 });
    expect(await store.latest(3)).toBeUndefined();
    expect(store.size).toBe(2);
  });

  it('prune drops the positions past the max age, oldest first, and keeps one heard from again', async () => {
    const store = new MemoryLivePositionStore(1000, 1000);
    await store.save(at(1, 52.52, 13.405, 1500));
    await store.save(at(2, 52.52, 13.405, 1200));
    await store.save(at(3, 52.52, 13.405, 1100));
    await store.save(at(2, 52.5201, 13.405)); // fresh again: moves behind 3
    await store.prune();
    expect(store.size).toBe(1);
    expect(await store.latest(1)).toBeUndefined();
    expect(await store.latest(2)).toMatchObject({ latitude: 52.5201 });
  });

  it('stays within its size bound, forgetting the driver heard from longest ago (reading does not count)', async () => {
    const store = new MemoryLivePositionStore(60_000, 3);
    for (const id of [1, 2, 3]) await store.save(at(id, 52.52, 13.405));
    await store.save(at(1, 52.52, 13.405)); // heard from again: now the newest
    expect(await store.latest(2)).toBeDefined(); // read, not heard: still the oldest
    await store.save(at(4, 52.52, 13.405));
    expect(store.size).toBe(3);
    const kept: number[] = [];
    for (const id of [1, 2, 3, 4]) if ((await store.latest(id)) !== undefined) kept.push(id);
    expect(kept).toEqual([1, 3, 4]);
  });
});
