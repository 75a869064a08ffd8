import { Logger } from '@nestjs/common';
import { DomainEventHandler, DomainEventMap, DomainEventName } from './domain-events';

/** Handler registry shared by the bus implementations: calls each subscriber, isolating failures. */
export class LocalDispatcher {
  private readonly handlers = new Map<DomainEventName, Set<DomainEventHandler<never>>>();
  private readonly logger = new Logger('EventBus');

  add<K extends DomainEventName>(name: K, handler: DomainEventHandler<K>): () => void {
    let set = this.handlers.get(name);
    if (!set) {
      set = new Set();
      this.handlers.set(name, set);
    }
    set.add(handler as DomainEventHandler<never>);
    return () => set.delete(handler as DomainEventHandler<never>);
  }

  dispatch<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void {
    const set = this.handlers.get(name);
    if (!set) return;
    for (const handler of set) {
      try {
        const result = (handler as DomainEventHandler<K>)(payload);
        if (result instanceof Promise) result.catch((err: unknown) => this.fail(name, err));
      } catch (err) {
        this.fail(name, err);
      }
    }
  }

  private fail(name: string, err: unknown): void {
    this.logger.error({ err, event: name, msg: 'Event handler failed' });
  }
}
