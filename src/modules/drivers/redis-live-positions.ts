import type Redis from 'ioredis';
import type { GeoPoint } from '../../common/events/domain-events';
import type { PendingLocation } from './drivers.repository';
import { LivePositionStore } from './live-positions.store';

/**
 * GEOSEARCH around the point, keep the ids heard from since ARGV[4] (their time is in the `seen`
 * sorted set), and drop from all three keys the ids older than ARGV[5] met on the way. In Redis,
 * so a search is one round trip and the pruning cannot race a heartbeat.
 */
const NEAR_SCRIPT = `
local ids = redis.call('GEOSEARCH', KEYS[1], 'FROMLONLAT', ARGV[1], ARGV[2], 'BYRADIUS', ARGV[3], 'km')
local minAt = tonumber(ARGV[4])
local pruneBefore = tonumber(ARGV[5])
local out = {}
for start = 1, #ids, 500 do
  local chunk = {}
  for i = start, math.min(start + 499, #ids) do chunk[#chunk + 1] = ids[i] end
  local times = redis.call('ZMSCORE', KEYS[2], unpack(chunk))
  for i, id in ipairs(chunk) do
    local at = times[i] and tonumber(times[i])
    if at and at >= minAt then
      out[#out + 1] = id
    elseif not at or at < pruneBefore then
      redis.call('ZREM', KEYS[1], id)
      redis.call('ZREM', KEYS[2], id)
      redis.call('HDEL', KEYS[3], id)
    end
  end
end
return out`;

/** Drops up to ARGV[2] entries heard from before ARGV[1]: the store stays bounded without a search. */
const PRUNE_SCRIPT = `
local ids = redis.call('ZRANGE', KEYS[2], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, ARGV[2])
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('HDEL', KEYS[3], id)
end
return #ids`;

const PRUNE_BATCH = 1000;
const MAX_GEO_LATITUDE = 85.05112878;

/**
 * The store shared by every instance: a geo set of driver ids, a sorted set of their last heartbeat
 * times and a hash with the full latest position (`lat,lng,heading,speed,accuracy,at_ms`), all under
 * REDIS_KEY_PREFIX. A heartbeat writes the three in one pipelined MULTI.
 */
export class RedisLivePositionStore extends LivePositionStore {
  private readonly keys: [geo: string, seen: string, latest: string];

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly maxAgeMs: number,
  ) {
    super();
    this.keys = [`${prefix}:drivers:geo`, `${prefix}:drivers:seen`, `${prefix}:drivers:latest`];
  }

  async save(p: PendingLocation): Promise<void> {
    const [geo, seen, latest] = this.keys;
    const at = p.at.getTime();
    const value = [p.latitude, p.longitude, p.heading ?? '', p.speed ?? '', p.accuracy ?? '', at].join(',');
    // Redis geo sets stop at ±85.05° (Web Mercator); the hash keeps the true latitude.
    const geoLatitude = Math.max(-MAX_GEO_LATITUDE, Math.min(MAX_GEO_LATITUDE, p.latitude));
    const results = await this.redis
      .multi()
      .geoadd(geo, p.longitude, geoLatitude, String(p.driverId))
      .zadd(seen, at, String(p.driverId))
      .hset(latest, String(p.driverId), value)
      .exec();
    const failed = results?.find(([err]) => err);
    if (failed) throw failed[0];
  }

  async latest(driverId: number): Promise<PendingLocation | undefined> {
    const value = await this.redis.hget(this.keys[2], String(driverId));
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

  async near(point: GeoPoint, radiusKm: number, maxAgeMs: number): Promise<number[]> {
    const now = Date.now();
    const ids = (await this.redis.eval(
      NEAR_SCRIPT,
      3,
      ...this.keys,
      point.longitude,
      point.latitude,
      radiusKm,
      now - maxAgeMs,
      now - this.maxAgeMs,
    )) as string[];
    return ids.map(Number);
  }

  async prune(): Promise<void> {
    for (;;) {
      const count = (await this.redis.eval(PRUNE_SCRIPT, 3, ...this.keys, Date.now() - this.maxAgeMs, PRUNE_BATCH)) as number;
      if (count < PRUNE_BATCH) return;
    }
  }
}
