import { Global, Module } from '@nestjs/common';
import { EventBus } from './event-bus';
import { InProcessEventBus } from './in-process-event-bus';

/** Provides the EventBus. In process by default; the Redis transport replaces it when REDIS_URL is set. */
@Global()
@Module({
  providers: [{ provide: EventBus, useClass: InProcessEventBus }],
  exports: [EventBus],
})
export class EventBusModule {}
