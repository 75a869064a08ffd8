import { LRUCache } from 'lru-cache';
import type { PendingLocation } from './drivers.repository';
import { LivePositionStore } from './live-positions.store';

/**
 * One instance's store (no Redis): the latest position of each driver in an LRU kept in heartbeat
 * order (a save makes the driver the newest; reading does not), so when the store is full the least
 * recently heard driver goes first, and pruning walks from the oldest end and stops at the first
 * position still young enough.
 */
export class MemoryLivePositionStore extends LivePositionStore {
  private readonly positions: LRUCache<number, PendingLocation>;

  constructor(
    private readonly maxAgeMs: number,
    maxEntries: number,
  ) {
    super();
    this.positions = new LRUCache<number, PendingLocation>({ max: maxEntries });
  }

  get size(): number {
    return this.positions.size;
  }

  save(location: PendingLocation): Promise<void> {
    this.positions.set(location.driverId, location);
    return Promise.resolve();
  }

  latest(driverId: number): Promise<PendingLocation | undefined> {
    return Promise.resolve(this.positions.peek(driverId));
  }

  /** Positions older than the max age tell no one anything: the table keeps their last position. */
  prune(): Promise<void> {
    const minAt = Date.now() - this.maxAgeMs;
    const expired: number[] = [];
    for (const driverId of this.positions.rkeys()) {
      if (this.positions.peek(driverId)!.at.getTime() >= minAt) break;
      expired.push(driverId);
    }
    for (const driverId of expired) this.positions.delete(driverId);
    return Promise.resolve();
  }
}
