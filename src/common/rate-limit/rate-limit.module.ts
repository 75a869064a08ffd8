import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { REDIS_CLIENT, RedisClient } from '../redis/redis.module';
import { PostgresRateLimiter } from './postgres-rate-limiter';
import { RateLimiter } from './rate-limiter';
import { RedisRateLimiter } from './redis-rate-limiter';
import { RateLimitCounterEntity } from './entities/rate-limit-counter.entity';

/**
 * Provides the RateLimiter: Redis when REDIS_URL is set (PostgreSQL while Redis is down), PostgreSQL
 * otherwise; both are shared by all instances.
 */
@Module({
  imports: [TypeOrmModule.forFeature([RateLimitCounterEntity])],
  providers: [
    {
      provide: RateLimiter,
      inject: [DataSource, REDIS_CLIENT, AppConfig],
      useFactory: async (db: DataSource, redis: RedisClient, config: AppConfig): Promise<RateLimiter> => {
        const postgres = new PostgresRateLimiter(db);
        if (!redis) return postgres;
        const scope = await databaseIdentity(db);
        return new RedisRateLimiter(redis, `${config.redisKeyPrefix}:ratelimit:`, { fallback: postgres, scope });
      },
    },
  ],
  exports: [RateLimiter],
})
export class RateLimitModule {}

/**
 * Counters are keyed by user id, and ids restart in a fresh database: without this scope, a new
 * database behind the same Redis would inherit the old one's counters (a new user refused on its
 * first request). The cluster's system identifier changes with every initdb and the database oid
 * with every CREATE DATABASE, so together they name this very database; read once at start-up.
 */
async function databaseIdentity(db: DataSource): Promise<string> {
  const [{ oid }] = (await db.query(`SELECT oid::text AS oid FROM pg_database WHERE datname = current_database()`)) as Array<{ oid: string }>;
  try {
    const [{ id }] = (await db.query(`SELECT system_identifier::text AS id FROM pg_control_system()`)) as Array<{ id: string }>;
    return `${id}-${oid}`;
  } catch (err) {
    // Hosted servers may refuse pg_control_system(); the oid still tells recreated databases apart.
    new Logger('RateLimiter').warn({ err, msg: 'pg_control_system() unavailable; rate-limit keys scoped by database oid only' });
    return oid;
  }
}
