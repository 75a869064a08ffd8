'use strict';
/**
 * node --expose-gc bench/open-requests-memory.js (after npm run build): what the open-requests index
 * costs per open request, and what a nearby page costs, at BENCH_RIDES (default 100,000) entries.
 *
 * The index is filled through its own start-up load (a repository that streams rows as the bench
 * seeds write them, bench/lib/city.js: same fields, same 67 × 67 km square, five categories, a
 * fingerprint per row), so every entry is built as in the service. Then:
 * - bytes per entry: heapUsed + external after full GCs, before against after the load (and RSS);
 * - µs per nearby page: 5 km, 50 rides, a random category (one in five without one) at a random
 *   point, BENCH_PAGES pages; "page" builds the body, "+bytes" also encodes it as Node does when it
 *   writes a string body (Buffer.byteLength and a UTF-8 copy);
 * - a breakdown of where the bytes go, each part built alone in this process and measured the same way.
 * BENCH_BUILD=<dist/> measures another build alone; BENCH_COMPARE=<another dist/> (e.g. a build of the previous commit) loads that build's index too, from
 * the same rows (a seeded random source), measures it the same way, times the two pages query by query
 * in alternation and checks that both answer every query with the same bytes.
 * BENCH_GATE=<file>: after the load, waits for that file to exist, then times the pages and exits (for
 * counting the pages' instructions alone: valgrind --tool=callgrind --instr-atstart=no, then
 * `callgrind_control -i on <pid>` before creating the file).
 */
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { CENTER, HALF_LAT, HALF_LNG, randomPoint } = require('./lib/city');

const DIST = process.env.BENCH_BUILD || join(__dirname, '..', 'dist');
const BUILDS = [DIST, ...(process.env.BENCH_COMPARE ? [process.env.BENCH_COMPARE] : [])];
const { rideToJson } = require(join(DIST, 'src/modules/rides/read-models/ride-view'));

/** A seeded random source (mulberry32), so that both builds get the same rows and queries. */
let seed = 0;
Math.random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const NOW = Date.now();

const N = Number(process.env.BENCH_RIDES || 100_000);
const PAGES = Number(process.env.BENCH_PAGES || 3000);
const CATEGORIES = [1, 2, 3, 4, 5];
const gc = global.gc;
if (!gc) throw new Error('run with node --expose-gc');

/** A flat string (as pg hands them over; a template literal would be a tree of cons strings). */
const flat = (s) => JSON.parse(JSON.stringify(s));

function uuid(i) {
  const h = (n, w) => n.toString(16).padStart(w, '0').slice(-w);
  const r = () => Math.floor(Math.random() * 0x10000);
  return flat(`${h(r(), 4)}${h(r(), 4)}-${h(r(), 4)}-4${h(r(), 3)}-${h(0x8000 | (r() & 0x3fff), 4)}-${h(r(), 4)}${h(r(), 4)}${h(i, 4)}`);
}

/** A row as the repository returns it for a ride seedRequestedRides wrote (pg types: Date, number, string). */
function seededRow(i) {
  const passengerId = 20_000 + i;
  const lat = CENTER.latitude + (Math.random() * 2 - 1) * HALF_LAT;
  const lng = CENTER.longitude + (Math.random() * 2 - 1) * HALF_LNG;
  const now = NOW;
  return {
    id: uuid(i),
    ride_code: passengerId.toString(16).toUpperCase().padStart(6, '0'),
    status: 'requested',
    ride_type: 'one_way',
    pickup_address: `Pickup street ${passengerId}`,
    pickup_latitude: lat,
    pickup_longitude: lng,
    dropoff_address: `Dropoff street ${passengerId}`,
    dropoff_latitude: lat + 0.01,
    dropoff_longitude: lng + 0.01,
    return_address: null,
    return_latitude: null,
    return_longitude: null,
    vehicle_category_id: CATEGORIES[passengerId % CATEGORIES.length],
    passenger_count: 1,
    children: 0,
    payment_method: 'cash',
    duration_minutes: null,
    end_scheduled_at: null,
    return_scheduled_at: null,
    promo_code: null,
    pickup_at: null,
    estimate: { distance_km: 1.57, duration_minutes: 4 },
    currency: 'EUR',
    fare_minor: null,
    offered_fare_minor: null,
    tip_minor: null,
    passenger_id: passengerId,
    p_first_name: `P${passengerId}`,
    p_last_name: 'CityBench',
    p_picture: null,
    p_rating: null,
    driver_id: null,
    d_first_name: null,
    d_last_name: null,
    d_picture: null,
    d_rating: null,
    d_category: null,
    d_make: null,
    d_model: null,
    d_plate: null,
    d_color: null,
    d_year: null,
    accepted_bid_id: null,
    cancelled_by: null,
    cancel_reason: null,
    driver_rating: null,
    passenger_rating: null,
    expires_at: new Date(now + 3 * 3600_000),
    accepted_at: null,
    arrived_at: null,
    started_at: null,
    completed_at: null,
    cancelled_at: null,
    created_at: new Date(now - (i % 600) * 1000),
    updated_at: new Date(now - (i % 600) * 1000),
    fp: (BigInt(Math.floor(Math.random() * 2 ** 52)) * 4093n - 2n ** 62n).toString(),
  };
}

function memory() {
  for (let i = 0; i < 4; i += 1) gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external, rss: m.rss };
}

function perEntry(before, after) {
  return { heap: (after.heap - before.heap) / N, rss: (after.rss - before.rss) / N };
}

async function loadIndex(dist) {
  const { OpenRequestsIndex } = require(join(dist, 'src/modules/rides/read-models/open-requests/open-requests.index'));
  const { InProcessEventBus } = require(join(dist, 'src/common/events/in-process-event-bus'));
  // What the build's repository returns as the fingerprint: text (64 bits) or a float8 (53 bits).
  const numericFp = readFileSync(join(dist, 'src/modules/rides/read-models/open-requests/open-requests.repository.js'), 'utf8').includes('::float8 AS fp');
  seed = 1;
  let made = 0;
  const repository = {
    async streamOpen(pageSize, onPage) {
      while (made < N) {
        const rows = [];
        for (let i = 0; i < pageSize && made < N; i += 1) {
          const row = seededRow(made++);
          if (numericFp) row.fp = Number(BigInt(row.fp) >> 11n);
          rows.push(row);
        }
        if (!(await onPage(rows))) return;
      }
    },
    streamFingerprints: async () => undefined,
    findOpen: async () => [],
  };
  const index = new OpenRequestsIndex(repository, new InProcessEventBus(), { openRequestsReconcileSeconds: 3600 });
  const started = process.hrtime.bigint();
  await index.resynchronise('start-up');
  const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (index.size !== N || !index.ready) throw new Error(`loaded ${index.size} of ${N}`);
  return { index, loadMs };
}

/** Times each build's page for the same queries, alternating which goes first; counts answers that differ between builds. */
function timePages(indexes) {
  seed = 2;
  const queries = Array.from({ length: PAGES }, (_, i) => ({
    ...randomPoint(),
    radiusKm: 5,
    vehicleCategoryId: i % 5 === 0 ? null : CATEGORIES[i % CATEGORIES.length],
    limit: 50,
  }));
  const times = indexes.map(() => ({ page: [], bytes: [] }));
  let size = 0;
  let rides = 0;
  let differing = 0;
  for (let round = 0; round < 3; round += 1) {
    queries.forEach((q, n) => {
      const bodies = [];
      for (let k = 0; k < indexes.length; k += 1) {
        const i = (n + round) % 2 === 0 ? k : indexes.length - 1 - k;
        const t0 = process.hrtime.bigint();
        const body = indexes[i].nearbyBody(q);
        const t1 = process.hrtime.bigint();
        const bytes = Buffer.from(body, 'utf8').length + Buffer.byteLength(body);
        const t2 = process.hrtime.bigint();
        bodies[i] = body;
        if (round === 2) {
          times[i].page.push(Number(t1 - t0) / 1000);
          times[i].bytes.push(Number(t2 - t0) / 1000);
          if (i === 0) {
            size += bytes / 2;
            rides += body === '[]' ? 0 : body.split('"ride_code"').length - 1;
          }
        }
      }
      if (bodies.some((b) => b !== bodies[0])) differing += 1;
    });
  }
  const stats = (xs) => {
    xs.sort((a, b) => a - b);
    return { p50: xs[Math.floor(xs.length / 2)], mean: xs.reduce((a, b) => a + b, 0) / xs.length, p99: xs[Math.floor(xs.length * 0.99)] };
  };
  return { times: times.map((t) => ({ page: stats(t.page), withBytes: stats(t.bytes) })), bytes: size / PAGES, rides: rides / PAGES, differing };
}

/** Retains what `make(i)` builds for N rides and measures it alone. */
function part(label, make) {
  const before = memory();
  const kept = new Array(N);
  for (let i = 0; i < N; i += 1) kept[i] = make(i);
  const after = memory();
  const e = perEntry(before, after);
  const arraySlot = 8;
  process.stdout.write(`  ${label.padEnd(62)} ${(e.heap - arraySlot).toFixed(0).padStart(6)} B\n`);
  return kept;
}

function breakdown() {
  process.stdout.write('breakdown (each part alone, bytes per ride, the holding array excluded):\n');
  const json = part('wire JSON as JSON.stringify returns it (a tree of cons parts)', (i) => JSON.stringify(rideToJson(seededRow(i))));
  process.stdout.write(`  (its length: ${json[0].length} characters)\n`);
  json.length = 0;
  part('head as the index keeps it: cons(slice(flattened JSON))', (i) => `${JSON.stringify(rideToJson(seededRow(i))).slice(0, -1)},"distance_km":`);
  part('  the same as one flat string', (i) => flat(`${JSON.stringify(rideToJson(seededRow(i))).slice(0, -1)},"distance_km":`));
  part('id, updatedAt, fingerprint strings', (i) => {
    const r = seededRow(i);
    return [r.id, r.updated_at.toISOString(), r.fp];
  });
  part('entry object (11 fields, 6 boxed doubles), strings excluded', (i) => ({
    id: '',
    latitude: 52.5 + i * 1e-9,
    longitude: 13.4 + i * 1e-9,
    x: 0.1 + i * 1e-9,
    y: 0.2 + i * 1e-9,
    z: 0.3 + i * 1e-9,
    categoryId: 1,
    expiresAtMs: Date.now() + i,
    passengerId: i,
    updatedAt: '',
    head: '',
    fingerprint: '',
    seq: i,
  }));
  const ids = Array.from({ length: N }, (_, i) => uuid(i));
  const before = memory();
  const placed = [new Map(), new Map()];
  for (const m of placed) for (let i = 0; i < N; i += 1) m.set(ids[i], { cell: ids, slot: i });
  const passengers = new Map();
  for (let i = 0; i < N; i += 1) passengers.set(i + 20_000, ids[i]);
  const after = memory();
  process.stdout.write(`  ${"two grids' placed Maps + Placed objects, byPassenger Map".padEnd(62)} ${perEntry(before, after).heap.toFixed(0).padStart(6)} B\n`);
  return [placed, passengers];
}

async function main() {
  process.stdout.write(`open-requests index at ${N} entries\nload average: ${readFileSync('/proc/loadavg', 'utf8').trim()}\n`);
  const indexes = [];
  for (const dist of BUILDS) {
    const before = memory();
    const { index, loadMs } = await loadIndex(dist);
    const after = memory();
    const e = perEntry(before, after);
    process.stdout.write(
      `${dist}: ${e.heap.toFixed(0)} B/entry (heapUsed+external), ${e.rss.toFixed(0)} B/entry RSS; load ${((loadMs * 1000) / N).toFixed(2)} µs/entry (with the bench's own row making)\n`,
    );
    indexes.push(index);
  }
  memory();
  if (process.env.BENCH_GATE) {
    process.stdout.write(`loaded; waiting for ${process.env.BENCH_GATE}\n`);
    while (!existsSync(process.env.BENCH_GATE)) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const t = timePages(indexes);
  if (process.env.BENCH_GATE) process.exit(0);
  process.stdout.write(
    `nearby page (5 km, ≤50 rides; ${t.rides.toFixed(1)} rides, ${(t.bytes / 1024).toFixed(1)} KB on average), ${PAGES} queries, builds alternating:\n`,
  );
  t.times.forEach(({ page, withBytes }, i) => {
    process.stdout.write(
      `  ${BUILDS[i]}: build p50 ${page.p50.toFixed(1)} µs mean ${page.mean.toFixed(1)} p99 ${page.p99.toFixed(1)}; ` +
        `build + bytes p50 ${withBytes.p50.toFixed(1)} µs mean ${withBytes.mean.toFixed(1)} p99 ${withBytes.p99.toFixed(1)}\n`,
    );
  });
  if (indexes.length > 1) process.stdout.write(`  answers that differ between the builds: ${t.differing} of ${PAGES * 3}\n`);
  for (const index of indexes) await index.beforeApplicationShutdown();
  indexes.length = 0;
  if (process.env.BENCH_BREAKDOWN !== '0') breakdown();
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});
