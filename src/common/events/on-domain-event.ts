import type { DomainEventMap, DomainEventName, EventMeta } from './domain-events';
import type { EventBus } from './event-bus';

const HANDLED_EVENTS = Symbol('domain-event-handler');

type Handler<K extends DomainEventName> = (payload: DomainEventMap[K], meta: EventMeta) => void | Promise<void>;

/**
 * Declares a provider method as the handler of one or more domain events. The method receives the
 * event's payload (for several events, what they have in common) and its EventMeta (which event,
 * and whether it was published on this instance). DomainEventSubscriptions finds
 * every such method once at start-up and subscribes it to the EventBus, and unsubscribes it at
 * shutdown: no service subscribes by hand. The bus's rules hold: local handlers run inside
 * publish, after the publisher's commit, and a failing handler is logged and isolated.
 */
export function OnDomainEvent<K extends DomainEventName>(...names: [K, ...K[]]) {
  return <M extends Handler<K>>(target: object, method: string | symbol, _descriptor: TypedPropertyDescriptor<M>): void => {
    const declared: DomainEventName[] = Reflect.getOwnMetadata(HANDLED_EVENTS, target, method) ?? [];
    Reflect.defineMetadata(HANDLED_EVENTS, [...declared, ...names], target, method);
  };
}

/** The events a method was declared to handle (none: not a handler). */
export function handledEvents(prototype: object, method: string): readonly DomainEventName[] {
  return Reflect.getMetadata(HANDLED_EVENTS, prototype, method) ?? [];
}

/** Every method name on the instance's prototype chain (own methods first), up to Object. */
function methodNames(instance: object): string[] {
  const names = new Set<string>();
  for (let p = Object.getPrototypeOf(instance) as object | null; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const name of Object.getOwnPropertyNames(p)) {
      if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(p, name)?.value === 'function') names.add(name);
    }
  }
  return [...names];
}

/**
 * Subscribes the instance's @OnDomainEvent methods to the bus; returns how to undo it. Used by
 * DomainEventSubscriptions for every provider, and by unit tests that build one service by hand.
 */
export function subscribeDomainEventHandlers(bus: EventBus, instance: object): () => void {
  const offs: Array<() => void> = [];
  const target = instance as Record<string, Handler<DomainEventName>>;
  for (const method of methodNames(instance)) {
    for (const name of handledEvents(instance, method)) {
      offs.push(bus.subscribe(name, (payload, meta) => target[method]!(payload, meta)));
    }
  }
  return () => {
    for (const off of offs.splice(0)) off();
  };
}
