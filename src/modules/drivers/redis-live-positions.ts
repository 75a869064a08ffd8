import type Redis from 'ioredis';
import type { PendingLocation } from './drivers.repository';
import { LivePositionStore } from './live-positions.store';

/** Drops up to ARGV[2] entries heard from before ARGV[1]: the store stays bounded without a search. */
const PRUNE_SCRIPT = `
local ids = redis.call('ZRANGE', KEYS[1], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, ARGV[2])
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
end
return #ids`;

const PRUNE_BATCH = 1000;

/**
 * The store shared by every instance: a sorted set of the drivers' last heartbeat times and a hash
 * with the full latest position (`lat,lng,heading,speed,accuracy,at_ms`), both under
 * REDIS_KEY_PREFIX. A heartbeat writes the two in one pipelined MULTI.
 */
export class RedisLivePositionStore extends LivePositionStore {
  private readonly keys: [seen: string, latest: string];

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly maxAgeMs: number,
  ) {
    super();
    this.keys = [`${prefix}:drivers:seen`, `${prefix}:drivers:latest`];
  }

  async save(p: PendingLocation): Promise<void> {
    const [seen, latest] = this.keys;
    const at = p.at.getTime();
    const value = [p.latitude, p.longitude, p.heading ?? '', p.speed ?? '', p.accuracy ?? '', at].join(',');
    const results = await this.redis.multi().zadd(seen, at, String(p.driverId)).hset(latest, String(p.driverId), value).exec();
    const failed = results?.find(([err]) => err);
    if (failed) throw failed[0];
  }

  async latest(driverId: number): Promise<PendingLocation | undefined> {
    const value = await this.redis.hget(this.keys[1], String(driverId));
    if (!value) return undefined;
    const [lat, lng, heading, speed, accuracy, at] = value.split(',');
    const orNull = (v: string): number | null => (v === '' ? null : Number(v));
    return {
      driverId,
      latitude: Number(lat),
      longitude: Number(lng),
      heading: orNull(heading),
      speed: orNull(speed),
      accuracy: orNull(accuracy),
      at: new Date(Number(at)),
    };
  }

  async prune(): Promise<void> {
    for (;;) {
      const count = (await this.redis.eval(PRUNE_SCRIPT, 2, ...this.keys, Date.now() - this.maxAgeMs, PRUNE_BATCH)) as number;
      if (count < PRUNE_BATCH) return;
    }
  }
}
