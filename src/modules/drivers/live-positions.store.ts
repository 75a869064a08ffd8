import type { PendingLocation } from './drivers.repository';

/**
 * The latest position of every driver who sent a heartbeat recently, shared by every instance that
 * sees the same store (memory: one instance; Redis: all). The driver's own views and trip sharing read
 * it, so a position counts as soon as the heartbeat is answered, whatever the database flush does.
 * (Matching keeps its own picture of positions, fed by the same heartbeats: matching/available-drivers.ts.)
 * Chosen at start-up: Redis when REDIS_URL is set, memory otherwise (live-positions.provider.ts).
 */
export abstract class LivePositionStore {
  /**
   * Always a promise, though memory has its answer at once: every caller awaits inside an async
   * function anyway, where a value costs the same tick as a settled promise (docs/decisions.md 2026-11-27).
   */
  abstract save(location: PendingLocation): Promise<void>;

  /** The newest position of the driver, undefined when none is kept (the table may still know one). */
  abstract latest(driverId: number): Promise<PendingLocation | undefined>;

  /** Forgets positions past the max age (keeps the store bounded). */
  abstract prune(): Promise<void>;
}
