import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { EventBus } from './event-bus';
import { OPERATOR_EVENTS_CHANNEL, OperatorEnvelope } from './pg-notify-event-bus';
import type { DomainEventMap, DomainEventName } from './domain-events';

const RETRY_MS = [500, 1000, 2000, 5000, 10_000];

/**
 * A server without Redis listens on PostgreSQL for the events an operator CLI process publishes
 * (PgNotifyEventBus) and hands them to its own bus, so `user:block` closes the user's sockets and
 * clears the cached state in the running server. One dedicated connection; it reconnects with
 * backoff when the database goes away.
 */
export class PgNotifyListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PgNotifyListener');
  private client: Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private attempt = 0;
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly bus: EventBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.databaseUrl, connectionTimeoutMillis: 3000 });
    client.on('error', (err: Error) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel === OPERATOR_EVENTS_CHANNEL && message.payload) this.receive(message.payload);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${OPERATOR_EVENTS_CHANNEL}`);
      this.attempt = 0;
    } catch (err) {
      this.lost(client, err);
    }
  }

  private lost(client: Client, err?: unknown): void {
    if (this.stopped || this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    const delay = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)]!;
    this.attempt += 1;
    this.logger.warn({ err, msg: `Operator event listener lost its connection; retrying in ${delay} ms` });
    this.retry = setTimeout(() => void this.connect(), delay);
    this.retry.unref();
  }

  private receive(text: string): void {
    let envelope: OperatorEnvelope;
    try {
      envelope = JSON.parse(text) as OperatorEnvelope;
    } catch {
      this.logger.warn({ msg: 'Ignoring a malformed operator event' });
      return;
    }
    if (typeof envelope?.name !== 'string' || typeof envelope.payload !== 'object' || envelope.payload === null) return;
    this.bus.publish(envelope.name, envelope.payload as DomainEventMap[DomainEventName]);
  }
}
