import { Injectable } from '@nestjs/common';
import { Metrics } from '../../common/metrics/metrics';
import { LiveConnection } from './live-connection';
import { Presence } from './presence/presence';
import { SharedFrame } from './ws-frames';

/**
 * The authenticated sockets held by this instance, by user id (a user may have several: phone and
 * tablet). Every routing decision is a map lookup; nothing here touches the database.
 */
@Injectable()
export class ConnectionRegistry {
  private readonly byUser = new Map<number, Set<LiveConnection>>();
  private connectedDrivers = 0;
  /** Operators with a live socket here: the operators audience of the routing table (`sos_raised`, `payment_failed`). */
  private readonly operators = new Set<number>();
  private readonly queue: Delivery[] = [];
  private draining = false;

  constructor(
    private readonly presence: Presence,
    private readonly metrics: Metrics,
  ) {}

  add(connection: LiveConnection): void {
    const user = connection.user;
    if (!user) throw new Error('Only authenticated connections are registered');
    let set = this.byUser.get(user.id);
    if (!set) {
      set = new Set();
      this.byUser.set(user.id, set);
      this.presence.online(user.id);
    }
    if (set.has(connection)) return;
    set.add(connection);
    this.metrics.openSockets.inc();
    if (user.role === 'driver') this.connectedDrivers += 1;
    if (user.role === 'operator') this.operators.add(user.id);
  }

  remove(connection: LiveConnection): void {
    const user = connection.user;
    if (!user) return;
    const set = this.byUser.get(user.id);
    if (!set?.delete(connection)) return;
    this.metrics.openSockets.dec();
    if (user.role === 'driver') this.connectedDrivers -= 1;
    if (set.size === 0) {
      this.byUser.delete(user.id);
      this.operators.delete(user.id);
      this.presence.offline(user.id);
    }
  }

  /** The operators with a live connection on this instance. */
  operatorIds(): number[] {
    return [...this.operators];
  }

  /** The user's live connections on this instance (empty when none). */
  connectionsOf(userId: number): ReadonlySet<LiveConnection> {
    return this.byUser.get(userId) ?? EMPTY;
  }

  /**
   * Writes one serialised frame to every connection of each user; unknown ids cost a lookup. The
   * frame becomes a WebSocket frame once for all its sockets (SharedFrame). A fan-out to thousands
   * of sockets (ride_requested in a busy area) yields to the event loop every SOCKETS_PER_TURN
   * writes instead of blocking it for the whole fan-out; later frames wait behind it, so every
   * socket still gets frames in the order they were sent. onFirstWrite and onLastWrite time it (not called when nobody is connected).
   */
  sendToUsers(userIds: Iterable<number | null | undefined>, frame: string, type = 'other', onFirstWrite?: () => void, onLastWrite?: () => void): void {
    const ids = Array.isArray(userIds) ? userIds : [...userIds];
    this.queue.push({ ids, next: 0, data: new SharedFrame(Buffer.from(frame)), type, written: 0, onFirstWrite, onLastWrite });
    if (!this.draining) this.drain();
  }

  private drain(): void {
    this.draining = false;
    let budget = SOCKETS_PER_TURN;
    while (this.queue.length > 0) {
      const delivery = this.queue[0]!;
      while (delivery.next < delivery.ids.length) {
        if (budget <= 0) {
          this.draining = true;
          setImmediate(() => this.drain());
          return;
        }
        const id = delivery.ids[delivery.next++];
        const set = id === null || id === undefined ? undefined : this.byUser.get(id);
        if (!set) continue;
        if (delivery.written === 0) delivery.onFirstWrite?.();
        for (const connection of set) connection.send(delivery.data);
        budget -= set.size;
        delivery.written += set.size;
      }
      this.queue.shift();
      if (delivery.written > 0) {
        delivery.onLastWrite?.();
        this.metrics.countDelivered(delivery.type, delivery.written);
      }
    }
  }

  /** Lets ride_requested skip the eligible-driver query when no driver is connected here. */
  get hasDrivers(): boolean {
    return this.connectedDrivers > 0;
  }

  get userCount(): number {
    return this.byUser.size;
  }
}

const EMPTY: ReadonlySet<LiveConnection> = new Set();

/**
 * Socket writes per turn of the event loop: ≈ 2.5 ms of CPU at ≈ 10 µs a write (one system call each,
 * bench/fanout-send-cost.js), so a request arriving during a fan-out waits for at most that. With 1,000
 * (≈ 10 ms), GET /health/live during a 10k fan-out had p50 / p99 22.8 / 219.6 ms; with 250, 5.5 / 82.6,
 * and the fan-out's last write came no later (one city run each on a loaded machine, BENCHMARKS.md).
 */
export const SOCKETS_PER_TURN = 250;

interface Delivery {
  ids: ReadonlyArray<number | null | undefined>;
  next: number;
  data: SharedFrame;
  /** The message type, for the delivered-messages counter. */
  type: string;
  written: number;
  onFirstWrite: (() => void) | undefined;
  onLastWrite: (() => void) | undefined;
}
