import { Logger } from '@nestjs/common';
import { DomainEventHandler, DomainEventMap, DomainEventName, EventMeta } from './domain-events';

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

  /** Counts every dispatched event (metrics); set by the bus's module. */
  observer: ((name: DomainEventName, meta: EventMeta) => void) | undefined;

  /** One frozen meta per event name and origin, so that dispatching allocates nothing. */
  private readonly metas = { local: new Map<DomainEventName, EventMeta>(), remote: new Map<DomainEventName, EventMeta>() };

  /** `local`: published on this instance (rather than received from another). */
  dispatch<K extends DomainEventName>(name: K, payload: DomainEventMap[K], local: boolean): void {
    const metas = local ? this.metas.local : this.metas.remote;
    let meta = metas.get(name);
    if (!meta) metas.set(name, (meta = Object.freeze({ name, local })));
    this.observer?.(name, meta);
    const set = this.handlers.get(name);
    if (!set) return;
    for (const handler of set) {
      try {
        const result = (handler as DomainEventHandler<K>)(payload, meta);
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
