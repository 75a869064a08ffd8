import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/** The shared command connection when REDIS_URL is set; null otherwise. */
export type RedisClient = Redis | null;

const logger = new Logger('Redis');

export function createRedisConnection(url: string, name: string): Redis {
  const client = new Redis(url, { connectionName: name, maxRetriesPerRequest: 2, enableAutoPipelining: true });
  // Without a listener, ioredis writes every failed reconnection to stderr itself, past the service's log.
  client.on('error', (err: Error) => logger.warn({ err, msg: `Redis connection ${name}: ${err.message}` }));
  return client;
}

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: RedisClient) {}

  async onApplicationShutdown(): Promise<void> {
    if (!this.redis || this.redis.status === 'end') return;
    // QUIT when connected (pending replies arrive first); when Redis is gone, a QUIT would wait
    // through reconnection attempts, so the connection is just dropped.
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => undefined);
    this.redis.disconnect();
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS_CLIENT,
      inject: [AppConfig],
      useFactory: (config: AppConfig): RedisClient => (config.redisUrl ? createRedisConnection(config.redisUrl, 'ride-hailing-commands') : null),
    },
    RedisCloser,
  ],
  exports: [REDIS_CLIENT],
})
export class RedisModule {}
