import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { REDIS_CLIENT, RedisClient } from '../redis/redis.module';
import { PostgresRateLimiter } from './postgres-rate-limiter';
import { RateLimiter } from './rate-limiter';
import { RedisRateLimiter } from './redis-rate-limiter';

/** Provides the RateLimiter: Redis when REDIS_URL is set, PostgreSQL otherwise (both shared by all instances). */
@Module({
  providers: [
    {
      provide: RateLimiter,
      inject: [DataSource, REDIS_CLIENT],
      useFactory: (db: DataSource, redis: RedisClient): RateLimiter =>
        redis ? new RedisRateLimiter(redis) : new PostgresRateLimiter(db),
    },
  ],
  exports: [RateLimiter],
})
export class RateLimitModule {}
