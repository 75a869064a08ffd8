import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainEventHandler, DomainEventMap, DomainEventName, EventMeta } from './domain-events';
import { EventBus } from './event-bus';
import { LocalDispatcher } from './local-dispatcher';

/** The PostgreSQL channel on which operator processes announce events to a server without Redis. */
export const OPERATOR_EVENTS_CHANNEL = 'ride_hailing_operator_events';

export interface OperatorEnvelope {
  name: DomainEventName;
  payload: unknown;
}

/**
 * The operator CLI's bus when there is no Redis: the CLI is a separate process, so its events
 * (a user blocked, unblocked, ...) travel to the running server through PostgreSQL's NOTIFY, which
 * the server LISTENs to (PgNotifyListener). NOTIFY is sent after the command's own transaction, like
 * any publish; the payload is small (ids and a reason) and far under NOTIFY's 8 000-byte limit.
 */
export class PgNotifyEventBus extends EventBus {
  private readonly dispatcher = new LocalDispatcher();
  private readonly logger = new Logger('PgNotifyEventBus');
  private readonly sent = new Set<Promise<unknown>>();

  constructor(private readonly db: DataSource) {
    super();
  }

  publish<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void {
    this.dispatcher.dispatch(name, payload, true);
    const envelope: OperatorEnvelope = { name, payload };
    const sending = this.db
      .query('SELECT pg_notify($1, $2)', [OPERATOR_EVENTS_CHANNEL, JSON.stringify(envelope)])
      .catch((err: unknown) => this.logger.error({ err, event: name, msg: 'Could not announce an operator event to the server' }))
      .finally(() => this.sent.delete(sending));
    this.sent.add(sending);
  }

  subscribe<K extends DomainEventName>(name: K, handler: DomainEventHandler<K>): () => void {
    return this.dispatcher.add(name, handler);
  }

  observe(observer: (name: DomainEventName, meta: EventMeta) => void): void {
    this.dispatcher.observer = observer;
  }

  /** Waits for the notifications still being sent (the CLI closes its pool right after the command). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.sent);
  }
}
