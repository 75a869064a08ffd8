import type { Writable } from 'node:stream';
import { WebSocket } from 'ws';
import { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { WsCloseCode, WsCloseCodeValue } from './realtime.errors';
import { SharedFrame } from './ws-frames';

export interface ConnectionLimits {
  maxMessagesPerSecond: number;
  maxBufferedBytes: number;
}

/** What to do with one incoming frame, from the connection's rate limit. */
export type Admission = 'accept' | 'reject' | 'drop' | 'close';

/** Frames queued before the snapshot is sent; more than this and the connection is not worth keeping. */
const MAX_QUEUED_FRAMES = 256;
/** A flood this many times over the limit within one second closes the connection. */
const FLOOD_FACTOR = 3;
/** How long a slow consumer gets to take its close frame before the socket is destroyed. */
const CLOSE_GRACE_MS = 1000;
/** Bytes are sent as a text frame, as the string they came from would be. */
const TEXT = { binary: false } as const;

type Frame = string | SharedFrame;

/**
 * One client socket and its state. Frames for it wait in a small queue until the snapshot has gone
 * out, so `ride_snapshot` is always the first message and no event published meanwhile is lost.
 * Every write checks the socket's send buffer: a client that stops reading is closed instead of
 * letting the buffer grow without bound.
 */
export class LiveConnection {
  user: AuthenticatedUser | null = null;
  /** Cleared at each protocol ping, set again by the pong (or any frame). */
  alive = true;
  private opened = false;
  private closing = false;
  private queued: Frame[] = [];
  private windowStartedAt = 0;
  private windowCount = 0;
  /** Where a SharedFrame's bytes go as they are; null: through ws.send. */
  private readonly tcp: Writable | null;

  /**
   * `tcp`: the upgraded request's socket (IncomingMessage.socket), the one ws writes its frames to.
   * A whole frame written there goes in the same write queue as ws's own frames, so order holds as
   * long as ws holds nothing back in a queue of its own: it does only while compressing (hence not
   * when an extension, permessage-deflate, was negotiated) or reading a Blob (we send none).
   * bufferedAmount still counts these bytes.
   */
  constructor(
    readonly socket: WebSocket,
    private readonly limits: ConnectionLimits,
    tcp: Writable | null = null,
  ) {
    this.tcp = tcp && socket.extensions === '' ? tcp : null;
  }

  get isClosing(): boolean {
    return this.closing || this.socket.readyState !== WebSocket.OPEN;
  }

  /** Sends the first message (the snapshot), then whatever was queued behind it. */
  open(firstFrame: string): void {
    if (this.opened || this.isClosing) return;
    this.opened = true;
    this.write(firstFrame);
    const queued = this.queued;
    this.queued = [];
    for (const frame of queued) this.write(frame);
  }

  /** A text frame: a string, or the frame made once for many sockets. */
  send(frame: Frame): void {
    if (this.isClosing) return;
    if (this.opened) {
      this.write(frame);
    } else if (this.queued.length < MAX_QUEUED_FRAMES) {
      this.queued.push(frame);
    } else {
      this.close(WsCloseCode.SLOW_CONSUMER, 'Too many pending messages');
    }
  }

  /** Fixed one-second window: the first frame over the limit is answered, the rest dropped; a flood closes. */
  admit(now = Date.now()): Admission {
    if (now - this.windowStartedAt >= 1000) {
      this.windowStartedAt = now;
      this.windowCount = 0;
    }
    this.windowCount += 1;
    const max = this.limits.maxMessagesPerSecond;
    if (this.windowCount <= max) return 'accept';
    if (this.windowCount === max + 1) return 'reject';
    return this.windowCount > max * FLOOD_FACTOR ? 'close' : 'drop';
  }

  close(code: WsCloseCodeValue, reason: string): void {
    if (this.closing) return;
    this.closing = true;
    this.queued = [];
    if (this.socket.readyState === WebSocket.CLOSED) return;
    // Close reasons are limited to 123 bytes by the protocol.
    this.socket.close(code, Buffer.from(reason).subarray(0, 123).toString());
    // The close frame waits behind whatever the client has not read; do not wait for it long.
    setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS).unref();
  }

  terminate(): void {
    this.closing = true;
    this.queued = [];
    this.socket.terminate();
  }

  private write(frame: Frame): void {
    const shared = frame instanceof SharedFrame;
    if (this.socket.bufferedAmount + (shared ? frame.wire.length : frame.length) > this.limits.maxBufferedBytes) {
      this.close(WsCloseCode.SLOW_CONSUMER, 'Client is not reading its messages fast enough');
      return;
    }
    if (!shared) this.socket.send(frame, TEXT);
    else if (this.tcp) this.tcp.write(frame.wire);
    else this.socket.send(frame.payload, TEXT);
  }
}
