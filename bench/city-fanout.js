'use strict';
/**
 * ride_requested fanned out to 10k driver sockets held by worker processes (bench/ws-worker.js),
 * against the bare ws send loop (fanout-cost.js) in the same run: server side (the service's own
 * first and last write, from /metrics) and client side apart, GET /health/live probed meanwhile.
 */
const { fork } = require('node:child_process');
const { join } = require('node:path');
const { CENTER } = require('./lib/city');
const { percentiles, rssMb } = require('./lib/stats');
const { now, must, rideBody } = require('./lib/city-http');
const { workerCall } = require('./lib/worker-call');
const { baselineFanOut, perSocket, spreads, untilCounted, window } = require('./fanout-cost');

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
      workers.map((worker, w) =>
        workerCall(worker, { cmd: 'connect', drivers: shares[w], base: ctx.base, wsBase: ctx.wsBase, concurrency: 64 }, 'connected', 'ws-worker'),
      ),
    );
    const open = connected.reduce((s, c) => s + c.ok, 0);
    result.connect_s = (Date.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 2000));
    const rssSockets = rssMb(ctx.servicePid());
    result.sockets_open = open;
    result.rss_before_sockets_mb = rssIdle;
    result.rss_with_sockets_mb = rssSockets;
    result.kb_per_socket = open ? Math.round((((rssSockets - rssIdle) * 1024) / open) * 10) / 10 : null;

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
        const hb = await Promise.all(
          workers.map((worker) => workerCall(worker, { cmd: 'heartbeat', point: pickup, concurrency: 16 }, 'heartbeats', 'ws-worker')),
        );
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
    const collected = await Promise.all(workers.map((worker) => workerCall(worker, { cmd: 'collect' }, 'arrivals', 'ws-worker')));
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
      server_side_ms: serverSide.length
        ? { first_write: percentiles(serverSide.map((s) => s.first)), last_write: percentiles(serverSide.map((s) => s.last)) }
        : null,
      // ride_requested frames the service wrote (with METRICS_TOKEN): tells a miss in transit from one in matching.
      server_written: serverSide.length ? written : null,
      // `at` is stamped just before the first write: the last write is (last − first) after it.
      client_side_ms:
        serverSide.length === rides.length
          ? percentiles(lastFromStamp.flatMap((v, i) => (v === null ? [] : [v - (serverSide[i].last - serverSide[i].first)])))
          : null,
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
  await Promise.all(open.map((worker) => workerCall(worker, { cmd: 'close' }, 'closed', 'ws-worker').catch(() => undefined)));
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

module.exports = { fanOut };
