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

export class RedisRateLimiter extends RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix = 'ride-hailing:ratelimit:',
  ) {
    super();
  }

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    const [hits, msLeft] = (await this.redis.eval(HIT_SCRIPT, 1, this.keyPrefix + key, String(windowSeconds * 1000))) as [
      number,
      number,
    ];
    return toResult(Number(hits), limit, Number(msLeft));
  }
}
