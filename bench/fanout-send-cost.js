'use strict';
/**
 * `node bench/fanout-send-cost.js` (after `npm run build`): where the server's share of a fan-out
 * goes, one layer at a time, in one run on one set of sockets. N sockets (default 10,000, BENCH_SOCKETS)
 * are opened by client worker processes (2, BENCH_WORKERS), then a ~1.3 KB frame goes to all of them
 * ROUNDS times in each of three ways, and the server's CPU per socket is measured from the first write
 * until every client has the frame:
 *   - service: ConnectionRegistry.sendToUsers over LiveConnection, as the gateway sends ride_requested;
 *   - bare ws.send: the same bytes through ws with nothing of ours (the baseline);
 *   - prebuilt frame: the WebSocket frame (header + payload) made once and written to each raw TCP
 *     socket, i.e. what is left when ws's per-send framing is gone (ws internals: measured, not used).
 */
const { fork } = require('node:child_process');
const { join } = require('node:path');
const WebSocket = require('ws');

const N = Number(process.env.BENCH_SOCKETS || 10_000);
const WORKERS = Number(process.env.BENCH_WORKERS || 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const FRAME = JSON.stringify({ type: 'ride_requested', ride_id: '00000000-0000-4000-8000-000000000000', data: { ride: { note: 'x'.repeat(1150) } }, at: new Date().toISOString() });

if (process.argv[2] === 'client') {
  let got = 0;
  let target = Infinity;
  const sockets = [];
  const reached = () => got >= target && process.send({ reached: got });
  process.on('message', async (m) => {
    if (m.open) {
      for (let i = 0; i < m.open; i += 1) {
        await new Promise((resolve) => {
          const socket = new WebSocket(`ws://127.0.0.1:${m.port}`, { perMessageDeflate: false });
          socket.on('open', resolve);
          socket.on('message', () => {
            got += 1;
            reached();
          });
          sockets.push(socket);
        });
      }
      process.send({ opened: sockets.length });
    } else if (m.until) {
      target = m.until;
      reached();
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

async function main() {
  const { ConnectionRegistry } = require(join(__dirname, '..', 'dist', 'src', 'modules', 'realtime', 'connection-registry'));
  const { LiveConnection } = require(join(__dirname, '..', 'dist', 'src', 'modules', 'realtime', 'live-connection'));
  const server = new WebSocket.WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise((resolve) => server.once('listening', resolve));
  const registry = new ConnectionRegistry({ online() {}, offline() {} }, { openSockets: { inc() {}, dec() {} }, countDelivered() {} });
  let nextId = 0;
  server.on('connection', (socket) => {
    const connection = new LiveConnection(socket, { maxMessagesPerSecond: 20, maxBufferedBytes: 1 << 20 });
    connection.user = { id: ++nextId, role: 'driver', isRegistered: true };
    registry.add(connection);
    connection.open('{}'); // the snapshot, as on connect
  });
  const workers = Array.from({ length: WORKERS }, () => fork(__filename, ['client']));
  const share = Math.ceil(N / WORKERS);
  await Promise.all(workers.map((w, i) => ask(w, { open: Math.min(share, N - i * share), port: server.address().port }, 'opened')));
  let received = N; // the snapshots
  const ids = Array.from({ length: N }, (_, i) => i + 1);
  const payload = Buffer.from(FRAME);
  const prebuilt = Buffer.concat(WebSocket.Sender.frame(payload, { fin: true, rsv1: false, opcode: 1, mask: false, readOnly: true }));
  const ways = {
    service: () => registry.sendToUsers(ids, FRAME, 'ride_requested'),
    'bare ws.send': () => {
      for (const socket of server.clients) socket.send(payload, { binary: false });
    },
    'prebuilt frame': () => {
      for (const socket of server.clients) socket._socket.write(prebuilt);
    },
  };
  const samples = Object.fromEntries(Object.keys(ways).map((k) => [k, { server: [], clients: [], ms: [] }]));
  const clientsCpu = async () => (await Promise.all(workers.map((w) => ask(w, { cpu: true }, 'cpu')))).reduce((s, v) => s + v, 0);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, send] of Object.entries(ways)) {
      received += N;
      const c0 = await clientsCpu();
      const t0 = process.hrtime.bigint();
      const u0 = process.cpuUsage();
      const all = Promise.all(workers.map((w, i) => ask(w, { until: (received / N) * Math.min(share, N - i * share) }, 'reached')));
      send();
      await all;
      const u = process.cpuUsage(u0);
      samples[name].ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
      samples[name].server.push((u.user + u.system) / N);
      samples[name].clients.push(((await clientsCpu()) - c0) / N);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const bare = median(samples['bare ws.send'].server);
  console.log(`${N} sockets, ${WORKERS} client processes, ${payload.length}-byte frame, median of ${ROUNDS} rounds; CPU µs per socket:`);
  for (const [name, s] of Object.entries(samples)) {
    const server = median(s.server);
    console.log(`  ${name.padEnd(15)} server ${server.toFixed(2)} (× ${(server / bare).toFixed(2)} bare ws.send)  clients ${median(s.clients).toFixed(2)}  first write → last arrival ${median(s.ms).toFixed(1)} ms`);
  }
  for (const w of workers) w.kill();
  server.close();
  process.exit(0);
}
