import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/** The shared command connection when REDIS_URL is set; null otherwise. */
export type RedisClient = Redis | null;

export function createRedisConnection(url: string, name: string): Redis {
  return new Redis(url, { connectionName: name, maxRetriesPerRequest: 2, enableAutoPipelining: true });
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
