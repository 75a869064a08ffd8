import { DomainEventHandler, DomainEventMap, DomainEventName } from './domain-events';

/**
 * Services publish domain events here after their transaction has committed (never inside it:
 * a rolled-back change must not be announced). Subscribers must not assume they run on the
 * instance that published: with Redis configured every instance receives every event.
 */
export abstract class EventBus {
  abstract publish<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void;
  /** Returns a function that removes the subscription. */
  abstract subscribe<K extends DomainEventName>(name: K, handler: DomainEventHandler<K>): () => void;
}
