'use strict';
// Cost of the structures under the caches (src/common/cache): the former hand-written Map LRU
// against lru-cache, and the former hand-written BatchLoader against dataloader.
// Run: node bench/cache-structures.js
const { LRUCache } = require('lru-cache');
const DataLoader = require('dataloader');

function time(name, n, fn) {
  fn(Math.min(n, 20_000));
  const start = process.hrtime.bigint();
  fn(n);
  const ns = Number(process.hrtime.bigint() - start) / n;
  console.log(`${name}: ${ns.toFixed(0)} ns/op`);
  return ns;
}
async function timeAsync(name, n, fn) {
  await fn(Math.min(n, 20_000));
  const start = process.hrtime.bigint();
  await fn(n);
  const ns = Number(process.hrtime.bigint() - start) / n;
  console.log(`${name}: ${ns.toFixed(0)} ns/op`);
  return ns;
}

/** The former ReadThroughCache storage: a Map in recency order, a hit re-inserted. */
class MapLru {
  constructor(max) {
    this.max = max;
    this.entries = new Map();
  }
  get(key, now) {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    if (e.expiresAt <= now) return undefined;
    this.entries.set(key, e);
    return e.value;
  }
  set(key, value, expiresAt) {
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value);
    this.entries.set(key, { value, expiresAt });
  }
}

/** The former BatchLoader (per turn, setImmediate, shared answer per key). */
class HandBatch {
  constructor(loadMany) {
    this.loadMany = loadMany;
    this.queued = new Map();
    this.scheduled = false;
  }
  load(key) {
    return new Promise((resolve, reject) => {
      const w = this.queued.get(key);
      if (w) w.push({ resolve, reject });
      else this.queued.set(key, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.dispatch());
      }
    });
  }
  dispatch() {
    const batch = this.queued;
    this.queued = new Map();
    this.scheduled = false;
    const keys = [...batch.keys()];
    this.loadMany(keys).then((values) => {
      for (const k of keys) for (const w of batch.get(k)) w.resolve(values.get(k));
    });
  }
}

async function main() {
  const max = 100_000;
  const keys = Array.from({ length: max }, (_, i) => i);
  const mapLru = new MapLru(max);
  const lru = new LRUCache({ max, ttl: 60_000 });
  for (const k of keys) {
    mapLru.set(k, { k }, Date.now() + 60_000);
    lru.set(k, { k });
  }
  console.log(`-- hit (${max} entries, random key)`);
  const random = Array.from({ length: 1 << 16 }, () => (Math.random() * max) | 0);
  for (let r = 0; r < 2; r++) {
    time('Map LRU get', 2_000_000, (n) => {
      let s = 0;
      for (let i = 0; i < n; i++) s += mapLru.get(random[i & 0xffff], Date.now()) ? 1 : 0;
      return s;
    });
    time('lru-cache get', 2_000_000, (n) => {
      let s = 0;
      for (let i = 0; i < n; i++) s += lru.get(random[i & 0xffff]) ? 1 : 0;
      return s;
    });
  }
  console.log('-- store into a full cache (evicts one)');
  let next = max;
  for (let r = 0; r < 2; r++) {
    time('Map LRU set', 1_000_000, (n) => {
      for (let i = 0; i < n; i++) mapLru.set(next++, { i }, Date.now() + 60_000);
    });
    time('lru-cache set', 1_000_000, (n) => {
      for (let i = 0; i < n; i++) lru.set(next++, { i }, { ttl: 60_000 });
    });
  }
  console.log('-- batch loading: 1,000 distinct keys per turn');
  const loadMany = async (ks) => new Map(ks.map((k) => [k, k]));
  const hand = new HandBatch(loadMany);
  const dl = new DataLoader(
    async (ks) => {
      const m = await loadMany(ks);
      return ks.map((k) => m.get(k));
    },
    { cache: false, batchScheduleFn: (cb) => setImmediate(cb), maxBatchSize: 1000 },
  );
  const turns = async (loader, n) => {
    for (let t = 0; t < n / 1000; t++) await Promise.all(keys.slice(0, 1000).map((k) => loader.load(k)));
  };
  for (let r = 0; r < 2; r++) {
    await timeAsync('hand-written BatchLoader load', 500_000, (n) => turns(hand, n));
    await timeAsync('dataloader load', 500_000, (n) => turns(dl, n));
  }
}
void main();
