export interface BatchLoaderOptions<K, V> {
  /** Loads one key (used when a turn asked for a single key: the simplest plan for the database). */
  loadOne: (key: K) => Promise<V | undefined>;
  /** Loads many keys in one round trip; keys it does not return resolve to undefined. */
  loadMany: (keys: K[]) => Promise<Map<K, V>>;
  /** At most this many keys per loadMany call (a parameter array, but a bounded one). */
  maxBatch?: number;
}

interface Waiter<V> {
  resolve: (value: V | undefined) => void;
  reject: (err: unknown) => void;
}

/**
 * Gathers the keys asked for during one event-loop turn and loads them together. A burst of cold
 * cache misses (thousands of distinct drivers heartbeating after a restart, or more drivers than
 * fit the cache) then costs one query per turn instead of one per request, which is what keeps
 * the pool of DB_POOL_SIZE connections from becoming the queue every request waits in.
 * Callers asking for the same key in one turn share its answer.
 */
export class BatchLoader<K, V> {
  private queued = new Map<K, Array<Waiter<V>>>();
  private scheduled = false;
  private readonly maxBatch: number;

  constructor(private readonly options: BatchLoaderOptions<K, V>) {
    this.maxBatch = Math.max(1, options.maxBatch ?? 1000);
  }

  load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.queued.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.queued.set(key, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate, not a microtask: every request whose bytes arrived in this I/O phase has
        // asked by then, so one query serves them all.
        setImmediate(() => this.dispatch());
      }
    });
  }

  private dispatch(): void {
    const batch = this.queued;
    this.queued = new Map();
    this.scheduled = false;
    const keys = [...batch.keys()];
    for (let i = 0; i < keys.length; i += this.maxBatch) {
      const chunk = keys.slice(i, i + this.maxBatch);
      const loaded: Promise<Map<K, V>> =
        chunk.length === 1
          ? this.options.loadOne(chunk[0]!).then((v) => (v === undefined ? new Map() : new Map([[chunk[0]!, v]])))
          : this.options.loadMany(chunk);
      loaded.then(
        (values) => {
          for (const key of chunk) for (const w of batch.get(key)!) w.resolve(values.get(key));
        },
        (err: unknown) => {
          for (const key of chunk) for (const w of batch.get(key)!) w.reject(err);
        },
      );
    }
  }
}
