/**
 * Who holds a live socket on another instance, so that a push goes only to users no instance can
 * reach (CONTRACT §10). The connection registry reports this instance's users as their first socket
 * opens and their last one closes; sockets here are looked up in the registry itself.
 */
export abstract class Presence {
  abstract online(userId: number): void;
  abstract offline(userId: number): void;
  /** Of these users (none connected here), the ones connected to another instance. */
  abstract elsewhere(userIds: readonly number[]): Promise<Set<number>>;
}

/** Without Redis there is one instance: nobody is connected elsewhere. */
export class SingleInstancePresence extends Presence {
  online(): void {}
  offline(): void {}
  async elsewhere(): Promise<Set<number>> {
    return new Set();
  }
}
