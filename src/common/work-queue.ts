/**
 * A bounded queue with a fixed number of workers: work that must not hold up its caller (sending
 * push notifications after a request) and must not grow without bound when its consumer is slow.
 * `add` refuses an item when the queue is full; the caller counts the drop.
 */
export class WorkQueue<T> {
  private readonly items: T[] = [];
  private running = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly capacity: number,
    private readonly concurrency: number,
    private readonly work: (item: T) => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Waiting and running items. */
  get size(): number {
    return this.items.length + this.running;
  }

  add(item: T): boolean {
    if (this.items.length >= this.capacity) return false;
    this.items.push(item);
    this.pump();
    return true;
  }

  /** Resolves when nothing waits or runs. */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Forgets the waiting items (shutdown); running ones finish. */
  clear(): void {
    this.items.length = 0;
    this.settle();
  }

  private pump(): void {
    while (this.running < this.concurrency && this.items.length > 0) {
      const item = this.items.shift()!;
      this.running += 1;
      this.work(item)
        .catch((err: unknown) => this.onError(err))
        .finally(() => {
          this.running -= 1;
          this.pump();
          this.settle();
        });
    }
  }

  private settle(): void {
    if (this.size > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
