import { CommonError } from '../errors/common.errors';

/** The outcome of counting one hit against a fixed-window limit. */
export interface RateLimitResult {
  allowed: boolean;
  /** Hits in the current window, this one included. */
  hits: number;
  /** Whole seconds until the window ends (at least 1): the `Retry-After` of a refusal. */
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters shared by every instance of the service (PostgreSQL, or Redis when
 * configured), so a limit holds behind a load balancer. A window starts at its key's first hit.
 */
export abstract class RateLimiter {
  /** Counts a hit on `key`; allowed while the window's hits stay within `limit`. */
  abstract hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult>;

  /** Takes one hit back from `key`'s current window (an attempt that must not count); nothing when the window is over. */
  abstract refund(key: string): Promise<void>;

  /** Counts a hit and refuses it with a 429 (Retry-After) past the limit; a limit of 0 is off. */
  async enforce(key: string, limit: number, windowSeconds: number): Promise<void> {
    if (limit <= 0) return;
    const hit = await this.hit(key, limit, windowSeconds);
    if (!hit.allowed) throw CommonError.rateLimited(hit.retryAfterSeconds);
  }
}

export function toResult(hits: number, limit: number, msLeft: number): RateLimitResult {
  return { allowed: hits <= limit, hits, retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)) };
}
