import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { EventBus } from './event-bus';
import { subscribeDomainEventHandlers } from './on-domain-event';

/**
 * Wires every @OnDomainEvent method of every provider to the bus, once, when the modules
 * initialise (before any application-bootstrap hook, so before the app listens or a listener such
 * as PgNotifyListener forwards an event), and unwires them when the modules are destroyed. A
 * provider bound under several tokens (useExisting) is one instance and is subscribed once.
 */
@Injectable()
export class DomainEventSubscriptions implements OnModuleInit, OnModuleDestroy {
  private readonly offs: Array<() => void> = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly bus: EventBus,
  ) {}

  onModuleInit(): void {
    const seen = new Set<object>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object' || seen.has(instance) || !wrapper.isDependencyTreeStatic()) continue;
      seen.add(instance);
      this.offs.push(subscribeDomainEventHandlers(this.bus, instance));
    }
  }

  onModuleDestroy(): void {
    for (const off of this.offs.splice(0)) off();
  }
}
