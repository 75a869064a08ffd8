import { Injectable, Logger, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { DomainEventMap } from './domain-events';
import { DomainEventSubscriptions } from './domain-event-subscriptions';
import { EventBus } from './event-bus';
import { InProcessEventBus } from './in-process-event-bus';
import { OnDomainEvent } from './on-domain-event';

@Injectable()
class Forgetful {
  readonly seen: string[] = [];

  @OnDomainEvent('user.access_revoked', 'user.access_restored')
  private forget(e: { user_id: number }): void {
    this.seen.push(`forget ${e.user_id}`);
  }

  @OnDomainEvent('user.access_revoked')
  private async revoked(e: DomainEventMap['user.access_revoked']): Promise<void> {
    this.seen.push(`revoked ${e.reason}`);
  }

  notAHandler(): void {
    this.seen.push('never');
  }
}

@Injectable()
class Failing {
  @OnDomainEvent('user.access_revoked')
  private fail(): void {
    throw new Error('handler bug');
  }
}

abstract class ForgetfulPort {}

@Module({
  providers: [Failing, Forgetful, { provide: ForgetfulPort, useExisting: Forgetful }],
  exports: [Forgetful],
})
class FeatureModule {}

async function boot() {
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule, FeatureModule],
    providers: [{ provide: EventBus, useClass: InProcessEventBus }, DomainEventSubscriptions],
  }).compile();
  await moduleRef.init();
  return { moduleRef, bus: moduleRef.get(EventBus), handler: moduleRef.get(Forgetful) };
}

describe('DomainEventSubscriptions', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('subscribes each declared method once per instance (an alias is the same instance), inside publish', async () => {
    const { moduleRef, bus, handler } = await boot();
    bus.publish('user.access_revoked', { user_id: 4, reason: 'blocked' });
    // Local delivery happens inside publish: no await between publishing and reading.
    expect(handler.seen).toEqual(['forget 4', 'revoked blocked']);
    bus.publish('user.access_restored', { user_id: 5 });
    expect(handler.seen).toEqual(['forget 4', 'revoked blocked', 'forget 5']);
    await moduleRef.close();
  });

  it('a failing handler is logged and does not keep the others from the event', async () => {
    const { moduleRef, bus, handler } = await boot();
    expect(() => bus.publish('user.access_revoked', { user_id: 1, reason: 'deleted' })).not.toThrow();
    expect(handler.seen).toEqual(['forget 1', 'revoked deleted']);
    expect(Logger.prototype.error).toHaveBeenCalledTimes(1);
    await moduleRef.close();
  });

  it('unsubscribes every handler when the modules are destroyed', async () => {
    const { moduleRef, bus, handler } = await boot();
    await moduleRef.close();
    bus.publish('user.access_revoked', { user_id: 2, reason: 'blocked' });
    expect(handler.seen).toEqual([]);
  });
});
