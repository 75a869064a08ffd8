import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { EventBus } from './event-bus';
import { InProcessEventBus } from './in-process-event-bus';
import { RedisEventBus } from './redis-event-bus';

/** Provides the EventBus: over Redis pub/sub when REDIS_URL is set (several instances), in process otherwise. */
@Global()
@Module({
  providers: [
    {
      provide: EventBus,
      inject: [AppConfig],
      useFactory: (config: AppConfig): EventBus =>
        config.redisUrl
          ? new RedisEventBus(config.redisUrl, `${config.redisKeyPrefix}:domain-events`)
          : new InProcessEventBus(),
    },
  ],
  exports: [EventBus],
})
export class EventBusModule {}
