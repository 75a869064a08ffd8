import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { EventBus } from '../../src/common/events/event-bus';
import { partialBid } from '../support/event-fixtures';
import { createUser } from '../support/factories';
import type { TestApp } from '../support/test-app';

export const LIVE_PATH = '/api/v1/ws/rides/live';

export interface LiveMessage {
  type: string;
  ride_id?: string | null;
  data?: Record<string, unknown>;
  at: string;
}

export interface CloseInfo {
  code: number;
  reason: string;
}

/**
 * A real `ws` client that records every message, so a test can wait for one of a type or assert
 * that nothing arrived. `next` consumes messages in order of arrival.
 */
export class LiveClient {
  readonly received: LiveMessage[] = [];
  private cursor = 0;
  private waiters: Array<() => void> = [];
  /** sync() calls waiting for their pong; those pongs are not recorded as received. */
  private syncs: Array<() => void> = [];
  readonly closed: Promise<CloseInfo>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as LiveMessage;
      if (message.type === 'pong' && this.syncs.length > 0) {
        this.syncs.shift()!();
        return;
      }
      this.received.push(message);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    socket.on('error', () => undefined);
  }

  /** Opens a socket (not waiting for any message). */
  static async open(url: string, options: ConstructorParameters<typeof WebSocket>[2] = {}): Promise<LiveClient> {
    const socket = new WebSocket(url, options);
    const client = new LiveClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  /** Connects with the token and waits for the ride_snapshot. */
  static async connect(t: TestApp, token: string, options: ConstructorParameters<typeof WebSocket>[2] = {}): Promise<LiveClient> {
    const client = await LiveClient.open(liveUrl(t, token), options);
    await client.next('ride_snapshot');
    return client;
  }

  /** The next message not yet consumed (of the given type, skipping others), or fails after timeoutMs. */
  async next(type?: string, timeoutMs = 5000): Promise<LiveMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.cursor < this.received.length) {
        const message = this.received[this.cursor++];
        if (!type || message.type === type) return message;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`No "${type ?? 'any'}" message within ${timeoutMs} ms; received: ${JSON.stringify(this.received.map((m) => m.type))}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Messages received since the last `next` (not consumed). */
  pending(): LiveMessage[] {
    return this.received.slice(this.cursor);
  }

  /**
   * A round trip on this socket (ping → pong): every frame the server wrote to it before reading the
   * ping has arrived when this resolves. The pong itself is not recorded.
   */
  async sync(timeoutMs = 5000): Promise<void> {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<void>((resolve, reject) => {
      this.syncs.push(resolve);
      timer = setTimeout(() => reject(new Error(`No pong within ${timeoutMs} ms`)), timeoutMs);
    });
    this.send({ type: 'ping' });
    try {
      await answered;
    } finally {
      clearTimeout(timer);
    }
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    this.socket.close();
    await this.closed;
  }
}

export function liveUrl(t: TestApp, token?: string): string {
  return `${t.wsUrl}${LIVE_PATH}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`;
}

/**
 * Checks that the clients received nothing beyond what the test consumed, once everything already
 * sent has arrived: a ping round trip on each socket (the gateway's handlers write their frames
 * while the event is published, before the REST call that caused it answers). With `across`, the
 * events published on any of those instances must first have crossed Redis to all of them.
 */
export async function expectNothingMore(clients: LiveClient[], options: { across?: TestApp[] } = {}): Promise<void> {
  if (options.across) await eventsCrossed(options.across);
  await Promise.all(clients.map((client) => client.sync()));
  for (const client of clients) expect(client.pending().map((m) => m.type)).toEqual([]);
}

const sentinels = new WeakMap<TestApp, Promise<{ userId: number; sockets: LiveClient[] }>>();

/**
 * Resolves once every event published so far on the instances' buses has been dispatched on each of
 * them: a marker event published on each bus after those events reaches a sentinel user's socket on
 * every instance (Redis delivers one connection's publishes in order, and dispatch is synchronous).
 */
export async function eventsCrossed(apps: TestApp[]): Promise<void> {
  let sentinel = sentinels.get(apps[0]!);
  if (!sentinel) {
    sentinel = createUser(apps[0]!).then(async (user) => ({
      userId: user.id,
      sockets: await Promise.all(apps.map((app) => LiveClient.connect(app, user.accessToken))),
    }));
    sentinels.set(apps[0]!, sentinel);
  }
  const { userId, sockets } = await sentinel;
  for (const app of apps) {
    const marker = randomUUID();
    app.get(EventBus).publish('bid.submitted', { ride_id: marker, passenger_id: userId, driver_id: userId, bid: partialBid({ id: marker }) });
    for (const socket of sockets) {
      while ((await socket.next('bid_submitted')).ride_id !== marker);
    }
  }
}

/** Closes the sentinel sockets eventsCrossed opened for these instances (before the apps close). */
export async function closeSentinels(apps: TestApp[]): Promise<void> {
  const sentinel = sentinels.get(apps[0]!);
  sentinels.delete(apps[0]!);
  if (sentinel) await Promise.all((await sentinel).sockets.map((socket) => socket.close()));
}
