import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { createRedisConnection } from '../redis/redis.module';
import { DomainEventHandler, DomainEventMap, DomainEventName } from './domain-events';
import { EventBus } from './event-bus';
import { LocalDispatcher } from './local-dispatcher';

/** The one channel every instance publishes to and listens on; the envelope names the event. */
export const DOMAIN_EVENTS_CHANNEL = 'ride-hailing:domain-events';
const QUIT_TIMEOUT_MS = 2000;

interface Envelope {
  name: DomainEventName;
  payload: unknown;
}

/**
 * Multi-instance bus over Redis pub/sub: one connection publishes, one subscribes (a subscribed
 * connection can run no other command). Every instance, the publisher included, receives each event
 * once through its subscription, so handlers behave the same whichever instance published.
 * Pub/sub is at-most-once: an event published while Redis is unreachable is delivered to this
 * instance only (logged), and clients resynchronise through ride_snapshot on reconnect.
 */
export class RedisEventBus extends EventBus implements OnModuleInit, OnApplicationShutdown {
  private readonly dispatcher = new LocalDispatcher();
  private readonly logger = new Logger('RedisEventBus');
  private readonly publisher: Redis;
  private readonly subscriber: Redis;

  constructor(
    url: string,
    private readonly channel: string = DOMAIN_EVENTS_CHANNEL,
  ) {
    super();
    this.publisher = createRedisConnection(url, 'ride-hailing-events-pub');
    // Connected in onModuleInit: a SUBSCRIBE sent before ioredis's ready check (INFO) makes that check
    // fail with "only subscriber commands may be used", and the connection comes back unsubscribed.
    this.subscriber = new Redis(url, { connectionName: 'ride-hailing-events-sub', lazyConnect: true, maxRetriesPerRequest: 2 });
    // ioredis emits connection errors as events; without listeners they would be reported as unhandled.
    this.publisher.on('error', (err: Error) => this.logger.warn({ err, msg: 'Redis publisher connection error' }));
    this.subscriber.on('error', (err: Error) => this.logger.warn({ err, msg: 'Redis subscriber connection error' }));
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
    });
  }

  /** Subscribed before the app accepts traffic, so no event published after start-up is missed. */
  async onModuleInit(): Promise<void> {
    await this.subscriber.connect();
    await this.subscriber.subscribe(this.channel);
  }

  /** QUIT lets queued publishes go out; bounded, then cut, so a Redis outage cannot hold the shutdown (or reconnect forever). */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.subscriber, this.publisher].map((connection) => closeConnection(connection)));
  }

  publish<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void {
    const envelope: Envelope = { name, payload };
    this.publisher.publish(this.channel, JSON.stringify(envelope)).catch((err: unknown) => {
      // Better that this instance's own clients get the event than nobody does.
      this.logger.error({ err, event: name, msg: 'Redis publish failed; delivering on this instance only' });
      this.dispatcher.dispatch(name, payload);
    });
  }

  subscribe<K extends DomainEventName>(name: K, handler: DomainEventHandler<K>): () => void {
    return this.dispatcher.add(name, handler);
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
    this.dispatcher.dispatch(envelope.name, envelope.payload as DomainEventMap[DomainEventName]);
  }
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
