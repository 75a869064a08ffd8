import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { REDIS_CLIENT, RedisClient } from '../redis/redis.module';
import { PostgresRateLimiter } from './postgres-rate-limiter';
import { RateLimiter } from './rate-limiter';
import { RedisRateLimiter } from './redis-rate-limiter';
import { RateLimitCounterEntity } from './entities/rate-limit-counter.entity';

/** Provides the RateLimiter: Redis when REDIS_URL is set, PostgreSQL otherwise (both shared by all instances). */
@Module({
  imports: [TypeOrmModule.forFeature([RateLimitCounterEntity])],
  providers: [
    {
      provide: RateLimiter,
      inject: [DataSource, REDIS_CLIENT, AppConfig],
      useFactory: (db: DataSource, redis: RedisClient, config: AppConfig): RateLimiter =>
        redis ? new RedisRateLimiter(redis, `${config.redisKeyPrefix}:ratelimit:`) : new PostgresRateLimiter(db),
    },
  ],
  exports: [RateLimiter],
})
export class RateLimitModule {}
