'use strict';
/**
 * `node bench/fanout-send-cost.js` (after `npm run build`): where a 10k fan-out's time goes, server
 * side against client side, one layer at a time, in one run on one set of sockets. N sockets
 * (default 10,000, BENCH_SOCKETS) are opened by client worker processes (2, BENCH_WORKERS), then a
 * ~1.3 KB frame goes to all of them ROUNDS times in each way below. Per way (median of the rounds):
 *   - server ms: from the send's start to the last socket's write returning (the service: to the end of
 *     its delivery, which yields to the event loop between chunks), and the sockets whose bytes were
 *     still queued in user space at that moment (0: every write was taken by the kernel at once);
 *   - arrivals: each socket's arrival (in the client processes, same machine clock) − the send's start,
 *     p50 / p99 / last; what is after the server's end is the clients' share (kernel to worker, ws
 *     parsing, our cheap id read);
 *   - CPU µs per socket, server (user / system) and clients, from the start until every client has it.
 * Ways:
 *   - service: ConnectionRegistry.sendToUsers over LiveConnection, as the gateway sends ride_requested
 *     (the frame made once, written whole to the upgraded request's TCP socket);
 *   - service-ws: the same through ws.send (LiveConnection without the request's socket; before 2026-11-25);
 *   - bare ws.send: the same bytes through ws with nothing of ours (the baseline);
 *   - prebuilt frame: the WebSocket frame (header + payload) made once and written to each raw TCP
 *     socket, i.e. what is left when ws's per-send framing is gone (ws internals: measured, not used).
 * BENCH_WAYS=service,bare narrows the ways.
 */
const { fork } = require('node:child_process');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const WebSocket = require('ws');

const N = Number(process.env.BENCH_SOCKETS || 10_000);
const WORKERS = Number(process.env.BENCH_WORKERS || 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const FRAME = JSON.stringify({
  type: 'ride_requested',
  ride_id: '00000000-0000-4000-8000-000000000000',
  data: { ride: { note: 'x'.repeat(1150) } },
  at: new Date().toISOString(),
});
const now = () => performance.timeOrigin + performance.now();

if (process.argv[2] === 'client') {
  let arrivals = [];
  let target = Infinity;
  const sockets = [];
  const reached = () => arrivals.length >= target && process.send({ reached: arrivals.length });
  process.on('message', async (m) => {
    if (m.open) {
      for (let i = 0; i < m.open; i += 1) {
        await new Promise((resolve) => {
          const socket = new WebSocket(`ws://127.0.0.1:${m.port}`, { perMessageDeflate: false });
          socket.on('open', resolve);
          socket.on('message', () => {
            arrivals.push(now());
            reached();
          });
          sockets.push(socket);
        });
      }
      process.send({ opened: sockets.length });
    } else if (m.until) {
      arrivals = [];
      target = m.until;
      reached();
    } else if (m.arrivals) {
      process.send({ times: arrivals });
    } else if (m.cpu) {
      const u = process.cpuUsage();
      process.send({ cpu: u.user + u.system });
    }
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

function ask(worker, message, key) {
  return new Promise((resolve) => {
    const onMessage = (m) => {
      if (m[key] !== undefined) {
        worker.off('message', onMessage);
        resolve(m[key]);
      }
    };
    worker.on('message', onMessage);
    worker.send(message);
  });
}

/** The longest the event loop went without running a 1 ms timer (what another request would have waited). */
function blockProbe() {
  let last = performance.now();
  let max = 0;
  const timer = setInterval(() => {
    const t = performance.now();
    max = Math.max(max, t - last);
    last = t;
  }, 1);
  return {
    reset: () => {
      last = performance.now();
      max = 0;
    },
    stop: () => clearInterval(timer),
    get max() {
      return Math.max(max, performance.now() - last);
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  const { ConnectionRegistry } = require(join(__dirname, '..', 'dist', 'src', 'modules', 'realtime', 'connection-registry'));
  const { LiveConnection } = require(join(__dirname, '..', 'dist', 'src', 'modules', 'realtime', 'live-connection'));
  const server = new WebSocket.WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise((resolve) => server.once('listening', resolve));
  let delivered = () => undefined;
  // The registry reports a delivery's end to its metrics: that is the service's last write.
  const metrics = { openSockets: { inc() {}, dec() {} }, countDelivered: () => delivered() };
  const registry = new ConnectionRegistry({ online() {}, offline() {} }, metrics);
  // The same sockets as the gateway held them before SharedFrame went to the request's TCP socket.
  const registryOverWs = new ConnectionRegistry({ online() {}, offline() {} }, metrics);
  let nextId = 0;
  server.on('connection', (socket, request) => {
    const user = { id: ++nextId, role: 'driver', isRegistered: true };
    const limits = { maxMessagesPerSecond: 20, maxBufferedBytes: 1 << 20 };
    const connection = new LiveConnection(socket, limits, request.socket); // as the gateway does
    const overWs = new LiveConnection(socket, limits);
    for (const [c, r] of [
      [connection, registry],
      [overWs, registryOverWs],
    ]) {
      c.user = user;
      r.add(c);
    }
    connection.open('{}'); // the snapshot, as on connect
    overWs.open('{}');
  });
  const workers = Array.from({ length: WORKERS }, () => fork(__filename, ['client']));
  const share = Math.ceil(N / WORKERS);
  const shares = workers.map((_, i) => Math.min(share, N - i * share));
  await Promise.all(workers.map((w, i) => ask(w, { open: shares[i], port: server.address().port }, 'opened')));
  await new Promise((r) => setTimeout(r, 500)); // the snapshots
  const ids = Array.from({ length: N }, (_, i) => i + 1);
  const payload = Buffer.from(FRAME);
  const prebuilt = Buffer.concat(WebSocket.Sender.frame(payload, { fin: true, rsv1: false, opcode: 1, mask: false, readOnly: true }));
  const loop = (write) => () => {
    for (const socket of server.clients) write(socket);
    return Promise.resolve();
  };
  const allWays = {
    service: () =>
      new Promise((resolve) => {
        delivered = resolve;
        registry.sendToUsers(ids, FRAME, 'ride_requested');
      }),
    'service-ws': () =>
      new Promise((resolve) => {
        delivered = resolve;
        registryOverWs.sendToUsers(ids, FRAME, 'ride_requested');
      }),
    bare: loop((socket) => socket.send(payload, { binary: false })),
    prebuilt: loop((socket) => socket._socket.write(prebuilt)),
  };
  const only = process.env.BENCH_WAYS ? process.env.BENCH_WAYS.split(',') : Object.keys(allWays);
  const ways = Object.fromEntries(only.map((k) => [k, allWays[k]]));
  const samples = Object.fromEntries(
    Object.keys(ways).map((k) => [k, { serverMs: [], queued: [], blocked: [], user: [], system: [], clients: [], p50: [], p99: [], last: [] }]),
  );
  const clientsCpu = async () => (await Promise.all(workers.map((w) => ask(w, { cpu: true }, 'cpu')))).reduce((s, v) => s + v, 0);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, send] of Object.entries(ways)) {
      const all = Promise.all(workers.map((w, i) => ask(w, { until: shares[i] }, 'reached')));
      const lag = blockProbe();
      await new Promise((r) => setTimeout(r, 50));
      const c0 = await clientsCpu();
      lag.reset();
      const u0 = process.cpuUsage();
      const t0 = now();
      await send();
      const serverMs = now() - t0;
      let queued = 0;
      for (const socket of server.clients) if (socket.bufferedAmount > 0) queued += 1;
      await all;
      const u = process.cpuUsage(u0);
      lag.stop();
      const clientUs = (await clientsCpu()) - c0;
      const times = (await Promise.all(workers.map((w) => ask(w, { arrivals: true }, 'times'))))
        .flat()
        .map((t) => t - t0)
        .sort((a, b) => a - b);
      const s = samples[name];
      s.serverMs.push(serverMs);
      s.queued.push(queued);
      s.blocked.push(lag.max);
      s.user.push(u.user / N);
      s.system.push(u.system / N);
      s.clients.push(clientUs / N);
      s.p50.push(pct(times, 50));
      s.p99.push(pct(times, 99));
      s.last.push(times[times.length - 1]);
    }
  }
  const bare = samples.bare ? median(samples.bare.serverMs) : null;
  console.log(
    `${N} sockets, ${WORKERS} client processes, ${payload.length}-byte frame, median of ${ROUNDS} rounds; load ${require('node:fs').readFileSync('/proc/loadavg', 'utf8').trim()}`,
  );
  console.log('way        server ms (× bare) queued  loop blocked ms  arrival p50 / p99 / last ms   server CPU µs/socket user+sys  clients µs/socket');
  for (const [name, s] of Object.entries(samples)) {
    const serverMs = median(s.serverMs);
    const ratio = bare ? ` (× ${(serverMs / bare).toFixed(2)})` : '';
    const cpu = `${median(s.user).toFixed(2)} + ${median(s.system).toFixed(2)}`;
    console.log(
      `${name.padEnd(10)} ${serverMs.toFixed(1).padStart(6)}${ratio.padEnd(10)} ${String(median(s.queued)).padStart(6)}  ${median(s.blocked).toFixed(1).padStart(15)}  ${median(s.p50).toFixed(1)} / ${median(s.p99).toFixed(1)} / ${median(s.last).toFixed(1)}`.padEnd(
        89,
      ) + `${cpu.padEnd(28)} ${median(s.clients).toFixed(2)}`,
    );
  }
  for (const w of workers) w.kill();
  server.close();
  process.exit(0);
}
