'use strict';
/**
 * A share of the bench's drivers, in a process of its own (forked by bench/run.js): opens their
 * live WebSockets, sends their location heartbeats, and timestamps every ride_requested on arrival
 * (epoch milliseconds from performance.timeOrigin + now(), the clock the parent uses for booking
 * responses: same machine), and the `at` the server stamped in the frame. Driven over IPC: connect, heartbeat (going online first), cpu, counts,
 * collect, close. The same worker also connects to bench/baseline-ws-server.js (any token will do).
 */
const { performance } = require('node:perf_hooks');
const WebSocket = require('ws');
const { openLiveSocket, requestedRideId, stampedAt } = require('./lib/live-socket');
const { mapLimit } = require('./lib/stats');

const sockets = [];
const arrivals = new Map(); // ride id → arrival times
const stamps = new Map(); // ride id → the frame's `at` (its serialisation on the server)
let drivers = [];
let base;
let unexpectedCloses = 0;

const now = () => performance.timeOrigin + performance.now();

function open(driver, wsBase) {
  return openLiveSocket(wsBase, driver.token, {
    onOpen: (socket) => sockets.push(socket),
    onFrame: (bytes) => {
      const at = now();
      const rideId = requestedRideId(bytes);
      if (!rideId) return;
      const list = arrivals.get(rideId);
      if (list) {
        list.push(at);
      } else {
        arrivals.set(rideId, [at]);
        stamps.set(rideId, stampedAt(bytes));
      }
    },
    onClose: (wasOpen) => {
      if (wasOpen) unexpectedCloses += 1;
    },
  });
}

async function heartbeat(driver, point) {
  if (!driver.online) {
    // Through the API, as an app does: the matcher on every instance learns of it from the event.
    const res = await fetch(`${base}/api/v1/driver/status`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${driver.token}` },
      body: JSON.stringify({ is_online: true }),
    });
    await res.arrayBuffer();
    if (!res.ok) return false;
    driver.online = true;
  }
  const res = await fetch(`${base}/api/v1/driver/location`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${driver.token}` },
    // Within about 1 km of the pickup: every driver is a receiver (matching radius 5 km).
    body: JSON.stringify({ latitude: point.latitude + (Math.random() - 0.5) * 0.012, longitude: point.longitude + (Math.random() - 0.5) * 0.016 }),
  });
  await res.arrayBuffer();
  return res.ok;
}

process.on('message', async (msg) => {
  try {
    if (msg.cmd === 'connect') {
      drivers = msg.drivers;
      base = msg.base;
      const results = await mapLimit(drivers, msg.concurrency || 100, (d) => open(d, msg.wsBase));
      process.send({ type: 'connected', ok: results.filter(Boolean).length, failed: results.filter((r) => !r).length });
    } else if (msg.cmd === 'heartbeat') {
      const results = await mapLimit(drivers, msg.concurrency || 16, (d) => heartbeat(d, msg.point).catch(() => false));
      process.send({ type: 'heartbeats', ok: results.filter(Boolean).length, failed: results.filter((r) => !r).length });
    } else if (msg.cmd === 'cpu') {
      // Cumulative CPU time of this client process, in µs: the client's share of a fan-out.
      const usage = process.cpuUsage();
      process.send({ type: 'cpu', us: usage.user + usage.system });
    } else if (msg.cmd === 'counts') {
      process.send({ type: 'counts', counts: Object.fromEntries(msg.rideIds.map((id) => [id, (arrivals.get(id) || []).length])) });
    } else if (msg.cmd === 'collect') {
      process.send({
        type: 'arrivals',
        arrivals: Object.fromEntries(arrivals),
        stamps: Object.fromEntries(stamps),
        open: sockets.filter((s) => s.readyState === WebSocket.OPEN).length,
        unexpectedCloses,
      });
    } else if (msg.cmd === 'close') {
      for (const s of sockets) s.terminate();
      process.send({ type: 'closed' });
      setTimeout(() => process.exit(0), 50);
    }
  } catch (err) {
    process.send({ type: 'error', message: err.stack || String(err) });
  }
});
