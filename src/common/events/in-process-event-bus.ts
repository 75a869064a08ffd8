import { Injectable } from '@nestjs/common';
import { DomainEventHandler, DomainEventMap, DomainEventName } from './domain-events';
import { EventBus } from './event-bus';
import { LocalDispatcher } from './local-dispatcher';

/** Single-instance bus: handlers run on the next tick so a publisher never waits for subscribers. */
@Injectable()
export class InProcessEventBus extends EventBus {
  private readonly dispatcher = new LocalDispatcher();

  publish<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void {
    setImmediate(() => this.dispatcher.dispatch(name, payload));
  }

  subscribe<K extends DomainEventName>(name: K, handler: DomainEventHandler<K>): () => void {
    return this.dispatcher.add(name, handler);
  }
}
