import { Injectable } from '@nestjs/common';
import { LiveConnection } from './live-connection';

/**
 * The authenticated sockets held by this instance, by user id (a user may have several: phone and
 * tablet). Every routing decision is a map lookup; nothing here touches the database.
 */
@Injectable()
export class ConnectionRegistry {
  private readonly byUser = new Map<number, Set<LiveConnection>>();
  private connectedDrivers = 0;

  add(connection: LiveConnection): void {
    const user = connection.user;
    if (!user) throw new Error('Only authenticated connections are registered');
    let set = this.byUser.get(user.id);
    if (!set) {
      set = new Set();
      this.byUser.set(user.id, set);
    }
    if (set.has(connection)) return;
    set.add(connection);
    if (user.role === 'driver') this.connectedDrivers += 1;
  }

  remove(connection: LiveConnection): void {
    const user = connection.user;
    if (!user) return;
    const set = this.byUser.get(user.id);
    if (!set?.delete(connection)) return;
    if (user.role === 'driver') this.connectedDrivers -= 1;
    if (set.size === 0) this.byUser.delete(user.id);
  }

  /** The user's live connections on this instance (empty when none). */
  connectionsOf(userId: number): ReadonlySet<LiveConnection> {
    return this.byUser.get(userId) ?? EMPTY;
  }

  /** Writes one already serialised frame to every connection of each user; unknown ids cost a lookup. */
  sendToUsers(userIds: Iterable<number | null | undefined>, frame: string): void {
    for (const id of userIds) {
      if (id === null || id === undefined) continue;
      const set = this.byUser.get(id);
      if (set) for (const connection of set) connection.send(frame);
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
