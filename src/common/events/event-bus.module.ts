import { DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { EventBus } from './event-bus';
import { InProcessEventBus } from './in-process-event-bus';
import { PgNotifyEventBus } from './pg-notify-event-bus';
import { PgNotifyListener } from './pg-notify-listener';
import { RedisEventBus } from './redis-event-bus';

export interface EventBusOptions {
  /** An operator process (the CLI) beside a running server, rather than a server. */
  operator?: boolean;
}

/**
 * Provides the EventBus: over Redis pub/sub when REDIS_URL is set (several instances), in process
 * otherwise. Without Redis, a server also listens on PostgreSQL for the events an operator CLI
 * process publishes, and the CLI publishes through PostgreSQL, so operator commands reach the
 * running server either way.
 */
@Global()
@Module({})
export class EventBusModule {
  static forRoot(options: EventBusOptions = {}): DynamicModule {
    return {
      module: EventBusModule,
      providers: [
        {
          provide: EventBus,
          inject: [AppConfig, DataSource],
          useFactory: (config: AppConfig, db: DataSource): EventBus => {
            if (config.redisUrl) return new RedisEventBus(config.redisUrl, `${config.redisKeyPrefix}:domain-events`);
            return options.operator ? new PgNotifyEventBus(db) : new InProcessEventBus();
          },
        },
        {
          provide: PgNotifyListener,
          inject: [AppConfig, EventBus],
          useFactory: (config: AppConfig, bus: EventBus): PgNotifyListener | null =>
            config.redisUrl || options.operator || !config.databaseUrl ? null : new PgNotifyListener(config.databaseUrl, bus),
        },
      ],
      exports: [EventBus],
    };
  }
}
