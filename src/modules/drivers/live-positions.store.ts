import type { GeoPoint } from '../../common/events/domain-events';
import type { PendingLocation } from './drivers.repository';

/**
 * The latest position of every driver who sent a heartbeat recently, shared by every instance that
 * sees the same store (memory: one instance; Redis: all). Matching and the driver's own views read
 * it, so a position counts as soon as the heartbeat is answered, whatever the database flush does.
 * Chosen at start-up: Redis when REDIS_URL is set, memory otherwise (live-positions.provider.ts).
 */
export abstract class LivePositionStore {
  /** Memory answers at once, Redis in one round trip; callers await either. */
  abstract save(location: PendingLocation): void | Promise<void>;

  /** The newest position of the driver, undefined when none is kept (the table may still know one). */
  abstract latest(driverId: number): PendingLocation | undefined | Promise<PendingLocation | undefined>;

  /** Drivers whose last heartbeat is within radiusKm of the point and younger than maxAgeMs. */
  abstract near(point: GeoPoint, radiusKm: number, maxAgeMs: number): Promise<number[]>;

  /** Forgets positions past the max age that no search has met (keeps the store bounded). */
  abstract prune(): Promise<void>;
}
