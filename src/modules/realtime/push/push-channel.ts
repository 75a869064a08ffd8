import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { asDeliveryError } from '../../../common/messaging/delivery-error';
import { Metrics } from '../../../common/metrics/metrics';
import { PushGateway } from '../../../common/push/push-gateway';
import { WorkQueue } from '../../../common/work-queue';
import { ConnectionRegistry } from '../connection-registry';
import { isOperators, LiveMessage } from '../live-routes';
import { PushTokensPort } from '../ports/push-tokens.port';
import { Presence } from '../presence/presence';

/** Messages waiting to have their receivers looked up (an event with a few messages each). */
const MESSAGE_QUEUE_CAPACITY = 2000;
const MESSAGE_WORKERS = 2;
/** Single notifications waiting for FCM; beyond this, new ones are dropped (and counted). */
const SEND_QUEUE_CAPACITY = 20_000;
const SEND_WORKERS = 16;
/** How long a shutdown waits for queued pushes. */
const SHUTDOWN_DRAIN_MS = 3000;
/** Failures are logged at most this often (with a count): an FCM outage must not flood the log. */
const FAILURE_LOG_INTERVAL_MS = 10_000;

export type ReceiverLookup = (message: LiveMessage) => Promise<readonly number[]>;

interface Notification {
  userId: number;
  token: string;
  message: LiveMessage;
}

/**
 * The second delivery channel (CONTRACT §10): a routed message is pushed to each receiver that has
 * a push token and no open live socket on any instance. Called only on the instance where the event
 * was published (exactly one per event), after the commit, and never waits: messages go into a
 * bounded queue whose workers look the receivers up (presence, then tokens, one query) and hand each
 * notification to a second bounded queue that calls FCM. A full queue drops (push_dropped_total);
 * a failure is counted and logged, never surfaced to the request that caused the event.
 */
@Injectable()
export class PushChannel implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Push');
  private readonly messages: WorkQueue<{ message: LiveMessage; receivers: ReceiverLookup }>;
  private readonly sends: WorkQueue<Notification>;
  private failuresSinceLog = 0;
  private lastFailureLog = 0;
  private stopped = false;

  constructor(
    @Inject(PushGateway) private readonly gateway: PushGateway | null,
    private readonly tokens: PushTokensPort,
    private readonly presence: Presence,
    private readonly registry: ConnectionRegistry,
    private readonly metrics: Metrics,
  ) {
    const failed = (err: unknown): void => this.logFailure(err);
    this.messages = new WorkQueue(MESSAGE_QUEUE_CAPACITY, MESSAGE_WORKERS, (job) => this.resolve(job.message, job.receivers), failed);
    this.sends = new WorkQueue(SEND_QUEUE_CAPACITY, SEND_WORKERS, (notification) => this.send(notification), failed);
  }

  get enabled(): boolean {
    return this.gateway !== null;
  }

  /** Queues the messages of one event; returns at once. */
  offer(messages: readonly LiveMessage[], receivers: ReceiverLookup): void {
    if (!this.gateway || this.stopped) return;
    for (const message of messages) {
      if (Array.isArray(message.to) && message.to.every((id) => id === null)) continue;
      if (!this.messages.add({ message, receivers })) this.metrics.pushDropped.inc();
    }
    this.metrics.pushQueued.set(this.messages.size + this.sends.size);
  }

  /** Resolves when every queued push was attempted (tests; shutdown). */
  async idle(): Promise<void> {
    await this.messages.idle();
    await this.sends.idle();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_DRAIN_MS)))]);
    clearTimeout(timer);
    this.messages.clear();
    this.sends.clear();
  }

  private async resolve(message: LiveMessage, receivers: ReceiverLookup): Promise<void> {
    // The socket side reaches the operators connected here; push reaches every operator account.
    const listed = isOperators(message.to) ? await this.tokens.findOperatorIds() : await receivers(message);
    const ids = [...new Set(listed)].filter((id) => this.registry.connectionsOf(id).size === 0);
    if (ids.length === 0) return;
    const elsewhere = await this.presence.elsewhere(ids);
    const absent = elsewhere.size === 0 ? ids : ids.filter((id) => !elsewhere.has(id));
    if (absent.length === 0) return;
    for (const [userId, token] of await this.tokens.findPushTokens(absent)) {
      if (!this.sends.add({ userId, token, message })) this.metrics.pushDropped.inc();
    }
    this.metrics.pushQueued.set(this.messages.size + this.sends.size);
  }

  private async send({ userId, token, message }: Notification): Promise<void> {
    try {
      const { title, body } = message.push();
      const result = await this.gateway!.send({ token, data: { type: message.type, ride_id: message.rideId }, title, body });
      if (result === 'sent') {
        this.metrics.pushSent.labels(message.type).inc();
        return;
      }
      this.metrics.pushFailed.labels(message.type, 'unregistered').inc();
      await this.tokens.clearPushToken(userId, token);
      this.logger.log({ msg: 'Cleared a push token FCM no longer knows', user_id: userId });
    } catch (err) {
      this.metrics.pushFailed.labels(message.type, asDeliveryError(err).kind).inc();
      this.logFailure(err);
    } finally {
      this.metrics.pushQueued.set(this.messages.size + this.sends.size);
    }
  }

  private logFailure(err: unknown): void {
    this.failuresSinceLog += 1;
    const now = Date.now();
    if (now - this.lastFailureLog < FAILURE_LOG_INTERVAL_MS) return;
    this.logger.warn({ msg: 'Push notifications failing', failures: this.failuresSinceLog, detail: asDeliveryError(err).message });
    this.failuresSinceLog = 0;
    this.lastFailureLog = now;
  }
}
