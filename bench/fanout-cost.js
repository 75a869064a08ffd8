'use strict';
/**
 * Where a fan-out's time goes: the CPU the server spends per socket against the CPU the clients
 * (bench/ws-worker.js processes) spend taking the frames, and how long the fan-out lasts as the
 * clients see it (first to last arrival). The same is measured in the same run against a bare `ws`
 * server (bench/baseline-ws-server.js) writing a frame of the same size to the same number of
 * sockets, so the service's figures are ratios to what the socket writes alone cost on this machine.
 */
const { fork } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');
const { cpuMs, percentiles } = require('./lib/stats');

/** Sums the workers' cumulative CPU in µs. */
async function workersCpuUs(workers, workerCall) {
  const answers = await Promise.all(workers.map((worker) => workerCall(worker, { cmd: 'cpu' }, 'cpu')));
  return answers.reduce((s, a) => s + a.us, 0);
}

/** One event's window: server and client CPU, from before it is caused until every socket has it. */
async function window(pid, workers, workerCall, cause, untilDelivered) {
  const [server0, clients0] = [cpuMs(pid), await workersCpuUs(workers, workerCall)];
  const caused = await cause();
  await untilDelivered(caused);
  const [server1, clients1] = [cpuMs(pid), await workersCpuUs(workers, workerCall)];
  return { caused, server_ms: server1 - server0, clients_ms: (clients1 - clients0) / 1000 };
}

/** First-to-p99 arrival per event (the fan-out's length as the clients see it), over all events. */
function spreads(arrivalsByEvent) {
  const values = [];
  for (const arrivals of arrivalsByEvent) {
    if (arrivals.length === 0) continue;
    const first = Math.min(...arrivals);
    for (const at of arrivals) values.push(at - first);
  }
  return percentiles(values);
}

/** Per-socket costs of a set of windows, in µs. */
function perSocket(windows, deliveries) {
  const sum = (key) => windows.reduce((s, w) => s + w[key], 0);
  const us = (ms) => (deliveries ? Math.round((ms * 1000 * 10) / deliveries) / 10 : null);
  return { server_us: us(sum('server_ms')), clients_us: us(sum('clients_ms')) };
}

/**
 * The baseline: the same worker count and socket count on a bare ws server, `events` broadcasts of
 * `frameOf(id)` (a frame as large as the service's). Returns per-socket costs and spreads.
 */
async function baselineFanOut({ sockets, workerCount, events, frameOf, workerCall, connectConcurrency = 64 }) {
  const server = fork(join(__dirname, 'baseline-ws-server.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const workers = Array.from({ length: workerCount }, () => fork(join(__dirname, 'ws-worker.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  try {
    const { port } = await new Promise((resolve) => server.once('message', resolve));
    const wsBase = `ws://127.0.0.1:${port}`;
    const clients = Array.from({ length: sockets }, (_, i) => ({ id: i, token: 'baseline' }));
    const shares = workers.map((_, w) => clients.filter((_, i) => i % workerCount === w));
    const connected = await Promise.all(
      workers.map((worker, w) =>
        workerCall(worker, { cmd: 'connect', drivers: shares[w], base: 'http://unused', wsBase, concurrency: connectConcurrency }, 'connected'),
      ),
    );
    const open = connected.reduce((s, c) => s + c.ok, 0);
    await new Promise((r) => setTimeout(r, 1000));
    const windows = [];
    const ids = [];
    for (let e = 0; e < events; e += 1) {
      const id = randomUUID();
      ids.push(id);
      windows.push(
        await window(
          server.pid,
          workers,
          workerCall,
          () =>
            new Promise((resolve) => {
              server.once('message', resolve);
              server.send({ cmd: 'broadcast', frame: frameOf(id) });
            }),
          (broadcast) => untilCounted(workers, workerCall, id, Math.min(open, broadcast.sent)),
        ),
      );
    }
    const collected = await Promise.all(workers.map((worker) => workerCall(worker, { cmd: 'collect' }, 'arrivals')));
    const byEvent = ids.map((id) => collected.flatMap((c) => c.arrivals[id] || []));
    const latencies = byEvent.flatMap((arrivals, e) => arrivals.map((at) => at - windows[e].caused.startedAt));
    const deliveries = latencies.length;
    // Its server side: the broadcast loop, first write to last (a bare server has nothing before it).
    const serverSide = percentiles(windows.map((w) => w.caused.loop_ms));
    return {
      sockets: open,
      events,
      deliveries,
      latency_ms: percentiles(latencies),
      server_side_ms: serverSide,
      spread_ms: spreads(byEvent),
      ...perSocket(windows, deliveries),
    };
  } finally {
    await Promise.all(workers.filter((w) => w.connected).map((worker) => workerCall(worker, { cmd: 'close' }, 'closed').catch(() => undefined)));
    for (const worker of workers) if (worker.exitCode === null) worker.kill();
    if (server.connected) server.send({ cmd: 'close' });
    setTimeout(() => server.exitCode === null && server.kill(), 2000).unref();
  }
}

/** Polls the workers until `expected` sockets have the event (or 15 s). */
async function untilCounted(workers, workerCall, id, expected) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const counts = await Promise.all(workers.map((worker) => workerCall(worker, { cmd: 'counts', rideIds: [id] }, 'counts')));
    if (counts.reduce((s, c) => s + c.counts[id], 0) >= expected || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

module.exports = { window, spreads, perSocket, baselineFanOut, untilCounted };
