import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { Metrics } from '../metrics/metrics';
import { DomainEventSubscriptions } from './domain-event-subscriptions';
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
 * running server either way. Handlers are provider methods marked @OnDomainEvent, subscribed
 * once at start-up by DomainEventSubscriptions.
 */
@Global()
@Module({})
export class EventBusModule {
  static forRoot(options: EventBusOptions = {}): DynamicModule {
    return {
      module: EventBusModule,
      imports: [DiscoveryModule],
      providers: [
        DomainEventSubscriptions,
        {
          provide: EventBus,
          inject: [AppConfig, DataSource, Metrics],
          useFactory: (config: AppConfig, db: DataSource, metrics: Metrics): EventBus => {
            const bus = config.redisUrl
              ? new RedisEventBus(config.redisUrl, `${config.redisKeyPrefix}:domain-events`)
              : options.operator
                ? new PgNotifyEventBus(db)
                : new InProcessEventBus();
            bus.observe((name, meta) => metrics.countEvent(name, meta.local));
            return bus;
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
