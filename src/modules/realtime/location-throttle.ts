interface RideSlot {
  lastSentAt: number;
  pending: (() => void) | null;
  timer: NodeJS.Timeout | null;
}

/**
 * At most one driver_location per ride per interval. An update inside the interval is not dropped
 * outright: the latest one is sent when the interval ends, so the passenger always ends up with the
 * driver's last known position while older intermediate points are skipped.
 */
export class LocationThrottle {
  private readonly rides = new Map<string, RideSlot>();

  constructor(private readonly intervalMs: number) {}

  offer(rideId: string, deliver: () => void, now = Date.now()): void {
    let slot = this.rides.get(rideId);
    if (!slot) {
      slot = { lastSentAt: 0, pending: null, timer: null };
      this.rides.set(rideId, slot);
    }
    const wait = slot.lastSentAt + this.intervalMs - now;
    if (wait <= 0 && !slot.timer) {
      slot.lastSentAt = now;
      deliver();
      return;
    }
    slot.pending = deliver;
    if (!slot.timer) {
      const owned = slot;
      owned.timer = setTimeout(() => this.flush(rideId, owned), Math.max(wait, 0));
      owned.timer.unref();
    }
  }

  /** The ride is over (or gone): drop its state and any update still waiting. */
  forget(rideId: string): void {
    const slot = this.rides.get(rideId);
    if (slot?.timer) clearTimeout(slot.timer);
    this.rides.delete(rideId);
  }

  /** Drops rides without an update for a while, in case their final event never reached us. */
  sweep(idleMs: number, now = Date.now()): void {
    for (const [rideId, slot] of this.rides) {
      if (!slot.timer && now - slot.lastSentAt > idleMs) this.rides.delete(rideId);
    }
  }

  clear(): void {
    for (const slot of this.rides.values()) if (slot.timer) clearTimeout(slot.timer);
    this.rides.clear();
  }

  get size(): number {
    return this.rides.size;
  }

  private flush(rideId: string, slot: RideSlot): void {
    slot.timer = null;
    const deliver = slot.pending;
    slot.pending = null;
    if (!deliver || this.rides.get(rideId) !== slot) return;
    slot.lastSentAt = Date.now();
    deliver();
  }
}
