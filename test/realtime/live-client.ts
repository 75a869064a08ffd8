import { WebSocket } from 'ws';
import type { TestApp } from '../support/test-app';

export const LIVE_PATH = '/api/v1/ws/rides/live';

export interface LiveMessage {
  type: string;
  ride_id?: string | null;
  data?: Record<string, any>;
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
  readonly closed: Promise<CloseInfo>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.received.push(JSON.parse(data.toString()) as LiveMessage);
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

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Gives the event bus (next tick, or Redis) and the sockets time to deliver, then checks silence. */
export async function expectNothingMore(clients: LiveClient[], ms = 300): Promise<void> {
  await sleep(ms);
  for (const client of clients) expect(client.pending().map((m) => m.type)).toEqual([]);
}
