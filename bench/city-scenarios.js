'use strict';
/**
 * The city-scale scenarios of npm run bench: nearby over 100k / 1M seeded requested rides,
 * heartbeats from 10k distinct drivers, ride_requested fanned out to 10k sockets, accept races,
 * all against data written through SQL and tokens minted with the bench's JWT_SECRET.
 * Each function returns a result row; a broken invariant (two winners, missing deliveries, a 5xx)
 * is reported in row.failure, which fails the run.
 */
const { fork } = require('node:child_process');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { CENTER, randomPoint, seedDrivers, seedPassengers, seedRequestedRides } = require('./lib/city');
const { mintAccessToken } = require('./lib/jwt');
const { mapLimit, percentiles, rssMb } = require('./lib/stats');
const { baselineFanOut, perSocket, spreads, untilCounted, window } = require('./fanout-cost');

const JSON_HEADERS = { 'content-type': 'application/json' };
const now = () => performance.timeOrigin + performance.now();

async function request(base, method, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body ? JSON_HEADERS : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

async function must(base, method, path, token, body) {
  const r = await request(base, method, path, token, body);
  if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${r.text.slice(0, 200)}`);
  return r.json;
}

function rideBody(point, categoryId) {
  return {
    pickup: { address: 'Bench pickup', latitude: point.latitude, longitude: point.longitude },
    dropoff: { address: 'Bench dropoff', latitude: point.latitude + 0.02, longitude: point.longitude + 0.02 },
    ride_type: 'one_way',
    vehicle_category_id: categoryId,
    passenger_count: 1,
    children: 0,
    payment_method: 'cash',
  };
}

/** Seeds rides [from, to) and measures nearby from a random point of the area per request. */
async function nearbyCity(ctx, from, to) {
  const started = Date.now();
  await seedRequestedRides(ctx.db, from, to);
  const seedMs = Date.now() - started;
  const token = ctx.driverTokens[0];
  const readyS = await ctx.restartService();
  const loadedAt = Date.now();
  await untilNearbyFromMemory(ctx.base, token);
  const loadS = readyS + (Date.now() - loadedAt) / 1000;
  const rss = rssMb(ctx.servicePid());
  const scenario = {
    name: `GET /driver/rides/nearby, ${to.toLocaleString('en-US')} rides`,
    requests: [
      {
        method: 'GET',
        headers: { authorization: `Bearer ${token}` },
        setupRequest: (req) => {
          const p = randomPoint();
          return { ...req, path: `/api/v1/driver/rides/nearby?latitude=${p.latitude.toFixed(6)}&longitude=${p.longitude.toFixed(6)}&radius_km=5` };
        },
      },
    ],
  };
  const row = await ctx.measurePaired(scenario);
  row.note =
    `${row.note ? `${row.note}; ` : ''}seeded ${(to - from).toLocaleString('en-US')} rides in ${(seedMs / 1000).toFixed(1)} s; ` +
    `restarted: ready in ${readyS.toFixed(1)} s, nearby from memory ${loadS.toFixed(1)} s after the spawn, ` +
    `RSS ${rss} MB then (${rss - ctx.rssIdleMb} MB over an idle service: ${Math.round(((rss - ctx.rssIdleMb) * 1024 * 1024) / to)} B per open request)`;
  row.startup_load_s = loadS;
  return row;
}

/**
 * The issue's "20 open requests behind 200k freshly cancelled ones": every earlier open request is
 * cancelled and vacuumed first; CANCELLED rides are seeded requested and the service restarted on
 * them, so its index holds them; then they are cancelled behind its back through SQL, with autovacuum
 * off for the rides table (their dead index entries stay, as before a vacuum), and 20 requested rides
 * of the driver's category are written within 2 km of the centre. The index learns both at its next
 * reconciliation (OPEN_REQUESTS_RECONCILE_SECONDS): the row reports how long after the writes nearby
 * showed exactly the 20. Measured from random points within 1 km of the centre, 5 km radius: every
 * page holds the 20.
 */
async function nearbyBehindCancelled(ctx, from, { cancelled = 200_000, open = 20 } = {}) {
  const token = ctx.driverTokens[0];
  await ctx.db.query(`UPDATE rides SET status = 'cancelled', cancelled_by = 'passenger', cancelled_at = now(), updated_at = now() WHERE status = 'requested'`);
  await ctx.db.query('VACUUM ANALYZE rides');
  const started = Date.now();
  await seedRequestedRides(ctx.db, from, from + cancelled);
  const seedMs = Date.now() - started;
  await ctx.restartService();
  await untilNearbyFromMemory(ctx.base, token);
  await ctx.db.query('ALTER TABLE rides SET (autovacuum_enabled = false)');
  try {
    await ctx.db.query(`UPDATE rides SET status = 'cancelled', cancelled_by = 'passenger', cancelled_at = now(), updated_at = now() WHERE status = 'requested'`);
    await seedRequestedRides(ctx.db, from + cancelled, from + cancelled + open, { halfKm: 2, categoryId: ctx.categoryId });
    const writtenAt = Date.now();
    const centre = `/api/v1/driver/rides/nearby?latitude=${CENTER.latitude}&longitude=${CENTER.longitude}&radius_km=5`;
    for (;;) {
      const r = await request(ctx.base, 'GET', centre, token);
      if (r.status === 200 && Array.isArray(r.json) && r.json.length === open) break;
      if (Date.now() - writtenAt > 180_000) throw new Error(`nearby at the centre still ${r.status} with ${Array.isArray(r.json) ? r.json.length : '?'} rides 180 s after the cancellations`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const reconciledS = (Date.now() - writtenAt) / 1000;
    const near = () => ({ latitude: CENTER.latitude + (Math.random() * 2 - 1) * 0.009, longitude: CENTER.longitude + (Math.random() * 2 - 1) * 0.0147 });
    const scenario = {
      name: `GET /driver/rides/nearby, ${open} open behind ${cancelled.toLocaleString('en-US')} freshly cancelled`,
      requests: [
        {
          method: 'GET',
          headers: { authorization: `Bearer ${token}` },
          setupRequest: (req) => {
            const p = near();
            return { ...req, path: `/api/v1/driver/rides/nearby?latitude=${p.latitude.toFixed(6)}&longitude=${p.longitude.toFixed(6)}&radius_km=5` };
          },
        },
      ],
    };
    const row = await ctx.measurePaired(scenario);
    row.note =
      `${row.note ? `${row.note}; ` : ''}seeded ${cancelled.toLocaleString('en-US')} rides in ${(seedMs / 1000).toFixed(1)} s, loaded by the index, ` +
      `then cancelled through SQL (autovacuum off) with ${open} new open ones: nearby showed exactly those ${reconciledS.toFixed(1)} s later (reconciliation)`;
    row.reconciled_s = reconciledS;
    return row;
  } finally {
    await ctx.db.query('ALTER TABLE rides RESET (autovacuum_enabled)');
  }
}

/**
 * Until nearby is answered from the open-requests index rather than by the database's fallback
 * during the start-up load. The two pages hold the same JSON; PostgreSQL's json writer puts spaces
 * around the colons (`{"id" : …`), the index's JSON.stringify does not: that tells them apart.
 */
async function untilNearbyFromMemory(base, token) {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const r = await request(base, 'GET', `/api/v1/driver/rides/nearby?latitude=${CENTER.latitude}&longitude=${CENTER.longitude}&radius_km=5`, token);
    if (r.status === 200 && r.text.startsWith('[{"id":"')) return;
    if (Date.now() > deadline) throw new Error(`nearby still from the database after 300 s: ${r.status} ${r.text.slice(0, 80)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** PUT /driver/location from every seeded driver in turn (a token and a position per request). */
async function heartbeats(ctx) {
  const tokens = ctx.driverTokens;
  let next = 0;
  const scenario = {
    name: `PUT /driver/location, ${tokens.length.toLocaleString('en-US')} drivers`,
    requests: [
      {
        method: 'PUT',
        setupRequest: (req) => {
          const token = tokens[next++ % tokens.length];
          const p = randomPoint();
          return {
            ...req,
            path: '/api/v1/driver/location',
            headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
            body: JSON.stringify({ latitude: p.latitude, longitude: p.longitude, heading: 90, speed: 8.5 }),
          };
        },
      },
    ],
  };
  return ctx.measurePaired(scenario);
}

function workerCall(worker, msg, replyType) {
  return new Promise((resolve, reject) => {
    const onMessage = (m) => {
      if (m.type === 'error') {
        worker.off('message', onMessage);
        reject(new Error(`ws-worker: ${m.message}`));
      } else if (m.type === replyType) {
        worker.off('message', onMessage);
        resolve(m);
      }
    };
    worker.on('message', onMessage);
    // With a callback, a closed channel rejects this call instead of emitting an unhandled 'error'.
    worker.send(msg, (err) => {
      if (err) {
        worker.off('message', onMessage);
        reject(err);
      }
    });
  });
}

/**
 * Every driver opens a socket (spread over worker processes) and heartbeats near one pickup; a
 * passenger books there BOOKINGS times (cancelling in between). Latency = arrival − booking response.
 */
async function fanOut(ctx, { workers: workerCount, bookings, passengerToken }) {
  const drivers = ctx.driverIds.map((id, i) => ({ id, token: ctx.driverTokens[i] }));
  const workers = Array.from({ length: workerCount }, () => fork(join(__dirname, 'ws-worker.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const result = { name: `ride_requested fan-out to ${drivers.length.toLocaleString('en-US')} sockets` };
  try {
    const rssIdle = rssMb(ctx.servicePid());
    const t0 = Date.now();
    const shares = workers.map((_, w) => drivers.filter((_, i) => i % workerCount === w));
    const connected = await Promise.all(
      workers.map((worker, w) => workerCall(worker, { cmd: 'connect', drivers: shares[w], base: ctx.base, wsBase: ctx.wsBase, concurrency: 64 }, 'connected')),
    );
    const open = connected.reduce((s, c) => s + c.ok, 0);
    result.connect_s = (Date.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 2000));
    const rssSockets = rssMb(ctx.servicePid());
    result.sockets_open = open;
    result.rss_before_sockets_mb = rssIdle;
    result.rss_with_sockets_mb = rssSockets;
    result.kb_per_socket = open ? Math.round(((rssSockets - rssIdle) * 1024) / open * 10) / 10 : null;

    const pickup = { latitude: CENTER.latitude, longitude: CENTER.longitude };
    // The same probe with no fan-out running, for what the machine's load alone does to it.
    const idleProbe = probeWhile(ctx.base);
    await new Promise((r) => setTimeout(r, 2000));
    const idleProbes = await idleProbe.stop();
    let heartbeatAt = 0;
    let receivers = 0;
    const rides = [];
    const windows = [];
    const serverSide = [];
    let written = 0;
    const probes = [];
    let frameBytes = 0;
    for (let b = 0; b < bookings; b += 1) {
      // The matcher only considers heartbeats younger than 60 s.
      if (Date.now() - heartbeatAt > 30_000) {
        // From the round's start: on a loaded machine a round of 10k heartbeats takes tens of seconds.
        heartbeatAt = Date.now();
        const hb = await Promise.all(workers.map((worker) => workerCall(worker, { cmd: 'heartbeat', point: pickup, concurrency: 16 }, 'heartbeats')));
        receivers = hb.reduce((s, h) => s + h.ok, 0);
        // Longer than DRIVER_LOCATION_MAX_AGE_SECONDS (60) and the first drivers are stale before the booking.
        result.heartbeat_round_s = Math.max(result.heartbeat_round_s || 0, (Date.now() - heartbeatAt) / 1000);
        if (receivers < drivers.length) result.heartbeat_failures = drivers.length - receivers;
      }
      // From before the booking until every receiver has it (or 15 s): the server's and the clients' CPU.
      const before = await fanOutMetrics(ctx.base);
      const probe = probeWhile(ctx.base);
      const w = await window(
        ctx.servicePid(),
        workers,
        workerCall,
        async () => {
          const booked = await must(ctx.base, 'POST', '/api/v1/rides/book', passengerToken, rideBody(pickup, ctx.categoryId));
          return { booked, respondedAt: now() };
        },
        ({ booked }) => untilCounted(workers, workerCall, booked.id, Math.min(receivers, open)),
      );
      probes.push(...(await probe.stop()));
      const after = await fanOutMetrics(ctx.base);
      if (before && after && after.lastCount - before.lastCount === 1) {
        serverSide.push({ first: (after.firstSum - before.firstSum) * 1000, last: (after.lastSum - before.lastSum) * 1000 });
      }
      if (before && after) written += after.written - before.written;
      const { booked, respondedAt } = w.caused;
      frameBytes = Buffer.byteLength(rideRequestedFrame(booked.id, booked));
      rides.push({ id: booked.id, respondedAt, booked });
      windows.push(w);
      // Cancelled so that the passenger may book again.
      await must(ctx.base, 'POST', `/api/v1/rides/${booked.id}/cancel`, passengerToken, { reason: 'bench' });
    }
    const collected = await Promise.all(workers.map((worker) => workerCall(worker, { cmd: 'collect' }, 'arrivals')));
    const latencies = [];
    const byRide = rides.map((ride) => collected.flatMap((c) => c.arrivals[ride.id] || []));
    rides.forEach((ride, i) => {
      for (const at of byRide[i]) latencies.push(at - ride.respondedAt);
    });
    const expected = Math.min(receivers, open) * rides.length;
    // The clock from the frame's `at` (stamped as the event is serialised, after the matcher and just
    // before the first write; ms resolution): the server's side ends at its last write, the rest is the clients'.
    const stamps = rides.map((ride) => collected.map((c) => (c.stamps || {})[ride.id]).find((at) => Number.isFinite(at)));
    const fromStamp = byRide.flatMap((arrivals, i) => (Number.isFinite(stamps[i]) ? arrivals.map((at) => at - stamps[i]) : []));
    const lastFromStamp = byRide.map((arrivals, i) => (arrivals.length && Number.isFinite(stamps[i]) ? Math.max(...arrivals) - stamps[i] : null));
    Object.assign(result, {
      bookings: rides.length,
      expected_deliveries: expected,
      delivered: latencies.length,
      latency_ms: percentiles(latencies),
      spread_ms: spreads(byRide),
      // The matcher answers from memory, inside the publish: the first frames may leave before the response.
      first_arrival_ms: percentiles(byRide.flatMap((a, i) => (a.length ? [Math.min(...a) - rides[i].respondedAt] : []))),
      frame_bytes: frameBytes,
      from_stamp_ms: percentiles(fromStamp),
      // Per booking, from /metrics when the service runs with METRICS_TOKEN: the event reaching the
      // realtime service → its first and its last socket write; and the last arrival − the last write.
      server_side_ms: serverSide.length ? { first_write: percentiles(serverSide.map((s) => s.first)), last_write: percentiles(serverSide.map((s) => s.last)) } : null,
      // ride_requested frames the service wrote (with METRICS_TOKEN): tells a miss in transit from one in matching.
      server_written: serverSide.length ? written : null,
      // `at` is stamped just before the first write: the last write is (last − first) after it.
      client_side_ms: serverSide.length === rides.length ? percentiles(lastFromStamp.flatMap((v, i) => (v === null ? [] : [v - (serverSide[i].last - serverSide[i].first)]))) : null,
      // GET /health/live in a loop during each booking's fan-out: what another request waited.
      other_requests_ms: percentiles(probes),
      other_requests_idle_ms: percentiles(idleProbes),
      ...perSocket(windows, latencies.length),
      unexpected_closes: collected.reduce((s, c) => s + c.unexpectedCloses, 0),
    });
    // The service's sockets go before the baseline's open: the clients' machine is the same.
    await closeWorkers(workers);
    const sample = rides[0] && rides[0].booked;
    if (sample && !process.env.BENCH_NO_WS_BASELINE) {
      const baseline = await baselineFanOut({ sockets: open, workerCount, events: rides.length, frameOf: (id) => rideRequestedFrame(id, sample), workerCall });
      result.baseline = baseline;
      result.ratios = {
        server_us_per_socket: ratio(result.server_us, baseline.server_us),
        clients_us_per_socket: ratio(result.clients_us, baseline.clients_us),
        spread_p99: ratio(result.spread_ms.p99, baseline.spread_ms.p99),
        server_side_p99: ratio(result.server_side_ms && result.server_side_ms.last_write.p99, baseline.server_side_ms.p99),
      };
    }
    result.note = `${result.delivered}/${expected} delivered (p50/p99 = arrival − booking response); ${result.kb_per_socket} KB per socket`;
    if (open < drivers.length) result.failure = `${drivers.length - open} of ${drivers.length} sockets failed to open`;
    else if (latencies.length < expected) result.failure = `${expected - latencies.length} of ${expected} deliveries missing`;
    else if (latencies.length < drivers.length * rides.length) result.failure = `only ${receivers} of ${drivers.length} heartbeats succeeded`;
  } finally {
    await closeWorkers(workers);
  }
  return result;
}

/** The fan-out timers of the service's /metrics (only when the bench runs it with METRICS_TOKEN). */
async function fanOutMetrics(base) {
  if (!process.env.METRICS_TOKEN) return null;
  try {
    const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${process.env.METRICS_TOKEN}` } })).text();
    const read = (name) => Number((new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text) || [])[1]);
    return {
      firstSum: read('matcher_first_send_seconds_sum'),
      lastSum: read('fanout_last_write_seconds_sum'),
      lastCount: read('fanout_last_write_seconds_count'),
      written: Number((/^ws_messages_delivered_total\{type="ride_requested"\} ([0-9.e+-]+)/m.exec(text) || [])[1] || 0),
    };
  } catch {
    return null;
  }
}

/** Requests GET /health/live one after another (5 ms apart) until stopped; resolves their latencies in ms. */
function probeWhile(base) {
  let running = true;
  const latencies = [];
  const loop = (async () => {
    while (running) {
      const t = now();
      const res = await fetch(`${base}/health/live`).catch(() => null);
      if (res) await res.arrayBuffer();
      latencies.push(now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return latencies;
    },
  };
}

const closedWorkers = new WeakSet();

async function closeWorkers(workers) {
  const open = workers.filter((worker) => worker.connected && !closedWorkers.has(worker));
  for (const worker of open) closedWorkers.add(worker);
  await Promise.all(open.map((worker) => workerCall(worker, { cmd: 'close' }, 'closed').catch(() => undefined)));
  for (const worker of workers) if (worker.exitCode === null) worker.kill();
}

/** The frame the service sends for a new request (realtime.events.ts): the baseline sends one as large. */
function rideRequestedFrame(rideId, ride) {
  return JSON.stringify({ type: 'ride_requested', ride_id: rideId, data: { ride: { ...ride, id: rideId } }, at: new Date().toISOString() });
}

function ratio(a, b) {
  return a && b ? Math.round((a / b) * 100) / 100 : null;
}

/** RIDES rides, 10 bids each, then the passenger fires the 10 accepts at once: one 200, nine 409. */
async function acceptRaces(ctx, { rides, bidders = 10 }) {
  const passengers = await seedPassengers(ctx.db, rides);
  const pickup = { latitude: CENTER.latitude + 0.25, longitude: CENTER.longitude + 0.25 }; // far from the fan-out drivers
  const counts = { rides, ok: 0, conflict: 0, other_4xx: 0, server_errors: 0, rides_with_one_winner: 0, rides_with_two_or_more: 0, rides_without_winner: 0 };
  const statuses = {};
  const t0 = Date.now();
  await mapLimit(passengers, 8, async (passengerId, i) => {
    const passengerToken = mintAccessToken(ctx.secret, passengerId, 'passenger');
    const ride = await must(ctx.base, 'POST', '/api/v1/rides/book', passengerToken, rideBody(pickup, ctx.categoryId));
    const bidderIds = ctx.driverIds.slice(i * bidders, (i + 1) * bidders);
    const bids = await Promise.all(
      bidderIds.map((id) => must(ctx.base, 'POST', `/api/v1/driver/rides/${ride.id}/bid`, mintAccessToken(ctx.secret, id, 'driver'), { amount: 12.5 + (id % 7), eta_minutes: 4 })),
    );
    const answers = await Promise.all(bids.map((bid) => request(ctx.base, 'POST', `/api/v1/rides/${ride.id}/bids/${bid.id}/accept`, passengerToken, {})));
    let winners = 0;
    for (const a of answers) {
      statuses[a.status] = (statuses[a.status] || 0) + 1;
      if (a.status === 200) {
        counts.ok += 1;
        winners += 1;
      } else if (a.status === 409) counts.conflict += 1;
      else if (a.status >= 500) counts.server_errors += 1;
      else counts.other_4xx += 1;
    }
    if (winners === 1) counts.rides_with_one_winner += 1;
    else if (winners > 1) counts.rides_with_two_or_more += 1;
    else counts.rides_without_winner += 1;
  });
  const row = { name: `accept races: ${rides} rides × ${bidders} accepts`, ...counts, statuses, duration_s: (Date.now() - t0) / 1000 };
  row.note = `${counts.ok} × 200, ${counts.conflict} × 409, ${counts.server_errors} × 5xx; one winner on ${counts.rides_with_one_winner}/${rides} rides`;
  if (counts.rides_with_two_or_more || counts.rides_without_winner || counts.server_errors || counts.other_4xx) {
    row.failure = `races: ${counts.rides_with_two_or_more} with two or more winners, ${counts.rides_without_winner} without, ${counts.server_errors} 5xx, ${counts.other_4xx} other 4xx`;
  }
  return row;
}

module.exports = { workerCall, nearbyCity, nearbyBehindCancelled, heartbeats, fanOut, acceptRaces, seedDrivers, mintAccessToken, rssMb };
