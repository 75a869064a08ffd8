import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimiter, RateLimitResult, toResult } from './rate-limiter';

/**
 * INCR and the window's expiry in one script, so a key can never be left without an expiry and
 * the window starts at the first hit (later hits never extend it).
 */
const HIT_SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}`;

/** Never below zero, and never on a key whose window is over (that would create a key without expiry). */
const REFUND_SCRIPT = `
local hits = tonumber(redis.call('GET', KEYS[1]))
if hits and hits > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/** A healthy Redis answers in a millisecond; past this the hit is counted by the fallback instead. */
const REDIS_HIT_TIMEOUT_MS = 500;

/**
 * Counters in Redis; while Redis is unreachable, in `fallback` (PostgreSQL, shared by all instances
 * too). The Redis call is attempted only on a ready connection and is bounded, so an outage costs
 * neither a 500 nor a wait through ioredis's retries. Counts restart in the other store on a switch:
 * during the switch a client may get up to one extra window's worth of hits, never a wrong refusal.
 */
export interface RedisRateLimiterOptions {
  /** Counts hits while Redis is unreachable; without one, a Redis failure is the caller's error. */
  fallback?: RateLimiter;
  /** Appended to every key: names the database whose ids the keys hold (see RateLimitModule). */
  scope?: string;
}

export class RedisRateLimiter extends RateLimiter {
  private readonly logger = new Logger('RateLimiter');
  private readonly fallback?: RateLimiter;
  private readonly keySuffix: string;
  private usingFallback = false;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix = 'ride-hailing:ratelimit:',
    options: RedisRateLimiterOptions = {},
  ) {
    super();
    this.fallback = options.fallback;
    this.keySuffix = options.scope ? `@${options.scope}` : '';
  }

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    if (!this.fallback) return this.evalHit(key, limit, windowSeconds);
    if (this.redis.status === 'ready') {
      try {
        const result = await this.boundedHit(key, limit, windowSeconds);
        if (this.usingFallback) {
          this.usingFallback = false;
          this.logger.log('Redis is back: rate limits are counted in Redis again');
        }
        return result;
      } catch (err) {
        this.switchToFallback(err);
      }
    } else {
      this.switchToFallback(undefined);
    }
    return this.fallback.hit(key, limit, windowSeconds);
  }

  /** Where the hit was counted (Redis, or PostgreSQL during an outage) is not known here: both are asked. */
  async refund(key: string): Promise<void> {
    const redisKey = this.keyPrefix + key + this.keySuffix;
    if (!this.fallback) {
      await this.redis.eval(REFUND_SCRIPT, 1, redisKey);
      return;
    }
    if (this.redis.status === 'ready') await this.redis.eval(REFUND_SCRIPT, 1, redisKey).catch(() => undefined);
    await this.fallback.refund(key);
  }

  private async boundedHit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${REDIS_HIT_TIMEOUT_MS} ms`)), REDIS_HIT_TIMEOUT_MS);
    });
    const call = this.evalHit(key, limit, windowSeconds);
    // A late answer or failure of the abandoned call must not surface as an unhandled rejection.
    call.catch(() => undefined);
    try {
      return await Promise.race([call, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async evalHit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    const [hits, msLeft] = (await this.redis.eval(HIT_SCRIPT, 1, this.keyPrefix + key + this.keySuffix, String(windowSeconds * 1000))) as [number, number];
    return toResult(Number(hits), limit, Number(msLeft));
  }

  /** Logged once per outage, not once per request. */
  private switchToFallback(err: unknown): void {
    if (this.usingFallback) return;
    this.usingFallback = true;
    this.logger.warn({ err, redis_status: this.redis.status, msg: 'Redis unavailable: rate limits are counted in PostgreSQL until it is back' });
  }
}
