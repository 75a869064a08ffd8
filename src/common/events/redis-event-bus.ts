import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { DomainEventHandler, DomainEventMap, DomainEventName, EventMeta } from './domain-events';
import { EventBus } from './event-bus';
import { LocalDispatcher } from './local-dispatcher';

/** The one channel every instance publishes to and listens on; the envelope names the event. */
export const DOMAIN_EVENTS_CHANNEL = 'ride-hailing:domain-events';
const QUIT_TIMEOUT_MS = 2000;
const PUBLISHER_READY_TIMEOUT_MS = 5000;

interface Envelope {
  name: DomainEventName;
  payload: unknown;
  /** The publishing instance, which has delivered the event to its own subscribers already. */
  origin?: string;
}

/**
 * Multi-instance bus over Redis pub/sub: one connection publishes, one subscribes (a subscribed
 * connection can run no other command). The publishing instance delivers each event to its own
 * subscribers at once, inside publish (as the in-process bus does: the writer's caches forget the
 * change before it answers) and ignores its own envelope
 * when it comes back through the subscription; every other instance gets it through Redis, once.
 * So a Redis outage never delays this instance's clients. Pub/sub is at-most-once: an event
 * published while Redis is unreachable reaches this instance only (logged once per outage), and
 * clients of other instances resynchronise through ride_snapshot on reconnect.
 */
export class RedisEventBus extends EventBus implements OnModuleInit, OnApplicationShutdown {
  private readonly dispatcher = new LocalDispatcher();
  private readonly logger = new Logger('RedisEventBus');
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly instanceId = randomUUID();
  private publishingFailed = false;
  private readonly resumedListeners = new Set<() => void>();
  /** The subscription was up, then its connection closed: events of other instances are being missed. */
  private subscriptionLost = false;
  private subscribed = false;

  constructor(
    url: string,
    private readonly channel: string = DOMAIN_EVENTS_CHANNEL,
  ) {
    super();
    // No offline queue: while Redis is down a publish fails at once instead of waiting through retries.
    this.publisher = new Redis(url, { connectionName: 'ride-hailing-events-pub', enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    // Connected in onModuleInit: a SUBSCRIBE sent before ioredis's ready check (INFO) makes that check
    // fail with "only subscriber commands may be used", and the connection comes back unsubscribed.
    this.subscriber = new Redis(url, { connectionName: 'ride-hailing-events-sub', lazyConnect: true, maxRetriesPerRequest: 2 });
    // ioredis emits connection errors as events; without listeners they would be reported as unhandled.
    this.publisher.on('error', (err: Error) => this.logger.warn({ err, msg: 'Redis publisher connection error' }));
    this.subscriber.on('error', (err: Error) => this.logger.warn({ err, msg: 'Redis subscriber connection error' }));
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
    });
    this.subscriber.on('close', () => {
      if (this.subscribed) this.subscriptionLost = true;
    });
    this.subscriber.on('ready', () => void this.resubscribed());
  }

  /** Subscribed before the app accepts traffic, so no event published after start-up is missed. */
  async onModuleInit(): Promise<void> {
    await this.subscriber.connect();
    await this.subscriber.subscribe(this.channel);
    this.subscribed = true;
    await waitUntilReady(this.publisher, PUBLISHER_READY_TIMEOUT_MS);
  }

  /** QUIT lets queued publishes go out; bounded, then cut, so a Redis outage cannot hold the shutdown (or reconnect forever). */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.subscriber, this.publisher].map((connection) => closeConnection(connection)));
  }

  publish<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void {
    this.dispatcher.dispatch(name, payload, true);
    const envelope: Envelope = { name, payload, origin: this.instanceId };
    this.publisher.publish(this.channel, JSON.stringify(envelope)).then(
      () => this.publishRecovered(),
      (err: unknown) => this.publishFailed(err, name),
    );
  }

  subscribe<K extends DomainEventName>(name: K, handler: DomainEventHandler<K>): () => void {
    return this.dispatcher.add(name, handler);
  }

  override onResumed(listener: () => void): () => void {
    this.resumedListeners.add(listener);
    return () => this.resumedListeners.delete(listener);
  }

  /**
   * ioredis resubscribes by itself on reconnecting; SUBSCRIBE again (a no-op for a subscribed
   * channel) so that its answer, which comes after the automatic one, says the channel is live
   * before the listeners resynchronise: nothing published after their database read is missed.
   */
  private async resubscribed(): Promise<void> {
    if (!this.subscriptionLost) return;
    this.subscriptionLost = false;
    try {
      await this.subscriber.subscribe(this.channel);
    } catch (err) {
      this.logger.warn({ err, msg: 'Redis resubscription failed' });
      this.subscriptionLost = true;
      return;
    }
    this.logger.log('Redis subscription is back; state kept from events resynchronises');
    for (const listener of this.resumedListeners) listener();
  }

  observe(observer: (name: DomainEventName, meta: EventMeta) => void): void {
    this.dispatcher.observer = observer;
  }

  /** Logged once per outage, not once per event. */
  private publishFailed(err: unknown, event: string): void {
    if (this.publishingFailed) return;
    this.publishingFailed = true;
    this.logger.error({ err, event, msg: 'Redis publish failed; events reach this instance only until Redis is back' });
  }

  private publishRecovered(): void {
    if (!this.publishingFailed) return;
    this.publishingFailed = false;
    this.logger.log('Redis publish works again; events reach every instance');
  }

  private receive(message: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch (err) {
      this.logger.warn({ err, msg: 'Ignoring a malformed event from Redis' });
      return;
    }
    if (typeof envelope?.name !== 'string' || typeof envelope.payload !== 'object' || envelope.payload === null) {
      this.logger.warn({ msg: 'Ignoring an event without name or payload from Redis' });
      return;
    }
    if (envelope.origin === this.instanceId) return;
    this.dispatcher.dispatch(envelope.name, envelope.payload as DomainEventMap[DomainEventName], false);
  }
}

/** Bounded: start-up must not hang on a Redis that is down (publishes then fail fast and are logged). */
async function waitUntilReady(connection: Redis, timeoutMs: number): Promise<void> {
  if (connection.status === 'ready') return;
  let timer: NodeJS.Timeout | undefined;
  let onReady: (() => void) | undefined;
  await new Promise<void>((resolve) => {
    onReady = resolve;
    timer = setTimeout(resolve, timeoutMs);
    connection.once('ready', resolve);
  });
  clearTimeout(timer);
  if (onReady) connection.off('ready', onReady);
}

async function closeConnection(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, QUIT_TIMEOUT_MS);
  });
  await Promise.race([connection.quit().catch(() => undefined), deadline]);
  clearTimeout(timer);
  connection.disconnect();
}
