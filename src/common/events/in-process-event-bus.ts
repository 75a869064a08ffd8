import { Injectable } from '@nestjs/common';
import { DomainEventHandler, DomainEventMap, DomainEventName, EventMeta } from './domain-events';
import { EventBus } from './event-bus';
import { LocalDispatcher } from './local-dispatcher';

/**
 * Single-instance bus. Handlers run at once, inside publish: publishers call it after their commit
 * and before answering, so this instance's caches have forgotten the change before the writer's
 * response leaves (read-your-writes), with no per-service invalidation call. Handlers are quick
 * (cache invalidations, socket writes); slower work (a query) runs on its own promise, and a
 * failing handler is isolated by the dispatcher.
 */
@Injectable()
export class InProcessEventBus extends EventBus {
  private readonly dispatcher = new LocalDispatcher();

  publish<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void {
    this.dispatcher.dispatch(name, payload, true);
  }

  subscribe<K extends DomainEventName>(name: K, handler: DomainEventHandler<K>): () => void {
    return this.dispatcher.add(name, handler);
  }

  observe(observer: (name: DomainEventName, meta: EventMeta) => void): void {
    this.dispatcher.observer = observer;
  }
}
