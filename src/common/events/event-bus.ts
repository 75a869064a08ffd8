import { DomainEventHandler, DomainEventMap, DomainEventName, EventMeta } from './domain-events';

/**
 * Services publish domain events here after their transaction has committed (never inside it:
 * a rolled-back change must not be announced). Subscribers must not assume they run on the
 * instance that published: with Redis configured every instance receives every event.
 */
export abstract class EventBus {
  abstract publish<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void;
  /**
   * Returns a function that removes the subscription. Services do not call this: they mark handler
   * methods with @OnDomainEvent, which DomainEventSubscriptions subscribes once at start-up.
   */
  abstract subscribe<K extends DomainEventName>(name: K, handler: DomainEventHandler<K>): () => void;
  /** Called for every event this instance handles, before its subscribers (metrics). */
  abstract observe(observer: (name: DomainEventName, meta: EventMeta) => void): void;
  /**
   * Calls `listener` each time the bus hears the other instances again after losing them (events
   * published elsewhere meanwhile never arrive): state kept from events resynchronises from the
   * database then. Returns how to stop. A bus that cannot lose events never calls it.
   */
  onResumed(_listener: () => void): () => void {
    return () => undefined;
  }
}
