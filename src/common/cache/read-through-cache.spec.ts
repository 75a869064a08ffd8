import { ReadThroughCache } from './read-through-cache';

/** A load the test resolves by hand, counting calls. */
function deferredLoader<V>() {
  const pending: Array<{ resolve: (v: V | undefined) => void; reject: (e: unknown) => void }> = [];
  const load = jest.fn(
    () =>
      new Promise<V | undefined>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
  );
  return { load, pending };
}

describe('ReadThroughCache', () => {
  let clock: number;
  const now = () => clock;

  beforeEach(() => {
    clock = 1_000;
  });

  it('serves a loaded value until its TTL, counted from when the load started, then loads again', async () => {
    const cache = new ReadThroughCache<string, number>({ ttlMs: 100, maxEntries: 10, now });
    const load = jest.fn(async () => 1);
    expect(await cache.get('a', load)).toBe(1);
    clock += 99;
    expect(await cache.get('a', load)).toBe(1);
    expect(cache.peek('a')).toBe(1);
    expect(load).toHaveBeenCalledTimes(1);
    clock += 1;
    expect(cache.peek('a')).toBeUndefined();
    expect(await cache.get('a', load)).toBe(1);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('a load that outlives the TTL is passed on but not stored', async () => {
    const cache = new ReadThroughCache<string, number>({ ttlMs: 100, maxEntries: 10, now });
    const { load, pending } = deferredLoader<number>();
    const result = cache.get('a', load);
    clock += 150;
    pending[0]!.resolve(7);
    expect(await result).toBe(7);
    expect(cache.peek('a')).toBeUndefined();
  });

  it('ttlMs 0 turns it off: every get loads, nothing is stored, no sharing', async () => {
    const cache = new ReadThroughCache<string, number>({ ttlMs: 0, maxEntries: 10, now });
    const load = jest.fn(async () => 5);
    expect(cache.enabled).toBe(false);
    await Promise.all([cache.get('a', load), cache.get('a', load)]);
    await cache.get('a', load);
    expect(load).toHaveBeenCalledTimes(3);
    expect(cache.size).toBe(0);
    expect(cache.peek('a')).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the oldest first', async () => {
    const cache = new ReadThroughCache<string, string>({ ttlMs: 1000, maxEntries: 3, now });
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key, async () => key.toUpperCase());
    expect(cache.size).toBe(3);
    expect(cache.peek('a')).toBeUndefined();
    expect(['b', 'c', 'd'].map((k) => cache.peek(k))).toEqual(['B', 'C', 'D']);
  });

  it('evicts the least recently used entry, not the oldest one still being read', async () => {
    const cache = new ReadThroughCache<string, string>({ ttlMs: 1000, maxEntries: 3, now });
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => key.toUpperCase());
    expect(cache.peek('a')).toBe('A'); // read: now the most recently used
    await cache.get('d', async () => 'D');
    expect(['a', 'b', 'c', 'd'].map((k) => cache.peek(k))).toEqual(['A', undefined, 'C', 'D']);
  });

  it('put stores a value from a write and detaches a load that read before it', async () => {
    const cache = new ReadThroughCache<string, string | null>({ ttlMs: 1000, maxEntries: 10, now });
    const { load, pending } = deferredLoader<string | null>();
    const stale = cache.get('driver', load);
    cache.put('driver', 'ride-2'); // the accept's event arrives while the load is in flight
    pending[0]!.resolve(null); // the load read the database before the accept
    expect(await stale).toBeNull();
    expect(cache.peek('driver')).toBe('ride-2');
  });

  it('does not store an absent value (undefined)', async () => {
    const cache = new ReadThroughCache<string, string>({ ttlMs: 1000, maxEntries: 3, now });
    const load = jest.fn(async () => undefined);
    expect(await cache.get('a', load)).toBeUndefined();
    expect(await cache.get('a', load)).toBeUndefined();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('concurrent misses for one key share one load (single flight); other keys load on their own', async () => {
    const cache = new ReadThroughCache<string, number>({ ttlMs: 1000, maxEntries: 10, now });
    const { load, pending } = deferredLoader<number>();
    const results = [cache.get('a', load), cache.get('a', load), cache.load('a', load), cache.get('b', load)];
    expect(load).toHaveBeenCalledTimes(2);
    pending[0]!.resolve(1);
    pending[1]!.resolve(2);
    expect(await Promise.all(results)).toEqual([1, 1, 1, 2]);
    expect(cache.peek('a')).toBe(1);
  });

  it('a failed load reaches every waiter, is not stored, and the next get loads again', async () => {
    const cache = new ReadThroughCache<string, number>({ ttlMs: 1000, maxEntries: 10, now });
    const { load, pending } = deferredLoader<number>();
    const results = [cache.get('a', load), cache.get('a', load)];
    pending[0]!.reject(new Error('db down'));
    await expect(results[0]).rejects.toThrow('db down');
    await expect(results[1]).rejects.toThrow('db down');
    const again = cache.get('a', load);
    expect(load).toHaveBeenCalledTimes(2);
    pending[1]!.resolve(3);
    expect(await again).toBe(3);
  });

  it('invalidate during a load: the stale result is not stored and later callers load afresh', async () => {
    const cache = new ReadThroughCache<string, string>({ ttlMs: 1000, maxEntries: 10, now });
    const { load, pending } = deferredLoader<string>();
    const before = cache.get('a', load); // reads the old state
    cache.invalidate('a'); // a write committed meanwhile
    const after = cache.get('a', load); // must not join the stale load
    expect(load).toHaveBeenCalledTimes(2);
    pending[1]!.resolve('new');
    pending[0]!.resolve('old'); // the stale load finishes last
    expect(await before).toBe('old');
    expect(await after).toBe('new');
    expect(cache.peek('a')).toBe('new');
  });

  it('a stale load finishing after the fresh one never overwrites it', async () => {
    const cache = new ReadThroughCache<string, string>({ ttlMs: 1000, maxEntries: 10, now });
    const { load, pending } = deferredLoader<string>();
    const before = cache.get('a', load);
    cache.invalidate('a');
    const after = cache.get('a', load);
    pending[0]!.resolve('old');
    await before;
    expect(cache.peek('a')).toBeUndefined();
    pending[1]!.resolve('new');
    await after;
    expect(cache.peek('a')).toBe('new');
  });

  it('clear and invalidateWhere drop values and detach every load in flight', async () => {
    const cache = new ReadThroughCache<string, { owner: number }>({ ttlMs: 1000, maxEntries: 10, now });
    await cache.get('a', async () => ({ owner: 1 }));
    await cache.get('b', async () => ({ owner: 2 }));
    const { load, pending } = deferredLoader<{ owner: number }>();
    const inFlight = cache.get('c', load);
    cache.invalidateWhere((v) => v.owner === 1);
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('b')).toEqual({ owner: 2 });
    pending[0]!.resolve({ owner: 3 });
    await inFlight;
    expect(cache.peek('c')).toBeUndefined();

    const second = cache.get('c', load);
    cache.clear();
    pending[1]!.resolve({ owner: 3 });
    await second;
    expect(cache.size).toBe(0);
  });
});
