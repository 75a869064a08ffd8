'use strict';
/**
 * One load-generator process of the capacity scenario (forked by bench/city-capacity.js, so the
 * bench's own CPU is not the service's): a share of the online drivers and of the passengers, all
 * through the public HTTP and WebSocket API.
 * - drivers hold a socket, heartbeat every HEARTBEAT_MS and poll nearby every NEARBY_MS (random
 *   phases), bid on a ride_requested they receive while free (with bidProbability, so a ride gets a
 *   few bids however many drivers are told), and carry a won ride through arrive, start, complete;
 * - passengers book at a fixed rate, accept the first bid they are sent, cancel when none comes.
 * IPC: connect, run, measure, stop (→ stats), close.
 */
const { performance } = require('node:perf_hooks');
const { openLiveSocket, requestedRideId } = require('./lib/live-socket');
const { randomPoint } = require('./lib/city');
const { client, Recorder, now } = require('./lib/capacity-client');
const { mapLimit } = require('./lib/stats');

const HEARTBEAT_MS = 5000;
const NEARBY_MS = 10_000;
const TRIP_STEP_MS = 2000; // accepted → arrived → started → completed, one step every 2 s
const NO_BID_CANCEL_MS = 20_000;

const rec = new Recorder();
const timers = new Set();
const clients = new Map(); // base URL → keep-alive client
let drivers = [];
let passengers = [];
let config;
let running = false;
let unexpectedCloses = 0;
let bookings = {}; // ride id → [booking request sent, response received] (epoch ms), measured window only
let arrivals = {}; // ride id → ride_requested arrival times

function later(ms, fn) {
  const t = setTimeout(() => {
    timers.delete(t);
    if (running) fn();
  }, ms);
  timers.add(t);
}

// One interval per driver and kind of call, not a fresh timer per tick: re-arming a timeout (and its
// entry in `timers`) for every heartbeat was a tenth of the generators' CPU.
function every(ms, phase, fn) {
  later(phase, () => {
    const t = setInterval(() => running && fn(), ms);
    timers.add(t);
    fn();
  });
}

function openSocket(user, wsBase, onFrame) {
  return openLiveSocket(wsBase, user.token, {
    onOpen: (socket) => (user.socket = socket),
    onFrame: (bytes) => onFrame(user, bytes),
    onClose: (wasOpen) => {
      if (wasOpen && user.socket && !user.closing) unexpectedCloses += 1;
    },
  });
}

// --- drivers -------------------------------------------------------------------------------

function onDriverFrame(driver, bytes) {
  const at = now();
  const rideId = requestedRideId(bytes);
  if (rideId !== null) {
    if (!rideId) return;
    if (rec.measuring) (arrivals[rideId] ??= []).push(at);
    if (running && !driver.rideId && !driver.bidding && Math.random() < config.bidProbability) bid(driver, rideId);
    return;
  }
  const frame = JSON.parse(bytes.toString('utf8'));
  if (frame.type === 'ride_accepted' && driver.bids.has(frame.ride_id)) {
    driver.bids.delete(frame.ride_id);
    if (frame.data.bid_status !== 'rejected' && !driver.rideId) carry(driver, frame.ride_id);
  }
}

async function bid(driver, rideId) {
  driver.bidding = true;
  const res = await rec.time(
    'POST /driver/rides/{id}/bid',
    () => driver.call('POST', `/api/v1/driver/rides/${rideId}/bid`, driver.token, { amount: 12.5, eta_minutes: 4 }),
    [409],
  );
  driver.bidding = false;
  if (res.status === 201 || res.status === 200) driver.bids.add(rideId);
}

function carry(driver, rideId) {
  driver.rideId = rideId;
  const steps = ['driver_arrived', 'started', 'completed'];
  const step = (k) =>
    later(TRIP_STEP_MS, async () => {
      const res = await rec.time('PUT /rides/{id}/status', () => driver.call('PUT', `/api/v1/rides/${rideId}/status`, driver.token, { status: steps[k] }));
      if (res.status !== 200 || k === steps.length - 1) driver.rideId = undefined;
      else step(k + 1);
    });
  step(0);
}

function heartbeat(driver) {
  driver.position.latitude += (Math.random() - 0.5) * 0.0005;
  driver.position.longitude += (Math.random() - 0.5) * 0.0008;
  return rec.time('PUT /driver/location', () =>
    driver.heartbeatCall('PUT', '/api/v1/driver/location', driver.token, { ...driver.position, heading: 90, speed: 8.5 }),
  );
}

function nearby(driver) {
  const { latitude, longitude } = driver.position;
  const path = `/api/v1/driver/rides/nearby?latitude=${latitude.toFixed(6)}&longitude=${longitude.toFixed(6)}&radius_km=5`;
  return rec.time('GET /driver/rides/nearby', () => driver.nearbyCall('GET', path, driver.token));
}

// --- passengers ----------------------------------------------------------------------------

function onPassengerFrame(passenger, bytes) {
  const frame = JSON.parse(bytes.toString('utf8'));
  if (frame.ride_id !== passenger.rideId) return;
  if (frame.type === 'bid_submitted' && !passenger.accepting) {
    passenger.accepting = true;
    const path = `/api/v1/rides/${frame.ride_id}/bids/${frame.data.bid.id}/accept`;
    rec.time('POST /rides/{id}/bids/{id}/accept', () => passenger.call('POST', path, passenger.token, {}), [409]);
  } else if (frame.type === 'ride_status_changed' && ['completed', 'cancelled'].includes(frame.data.ride.status)) {
    passenger.rideId = undefined;
  }
}

async function book() {
  const passenger = passengers.find((p) => !p.rideId && !p.booking);
  if (!passenger) {
    if (rec.measuring) (rec.byLabel['passengers exhausted'] ??= { latencies: [], ok: 0, expected: 0, errors: 0, statuses: {} }).errors += 1;
    return;
  }
  passenger.booking = true;
  const point = randomPoint();
  const body = {
    pickup: { address: 'Capacity pickup', ...point },
    dropoff: { address: 'Capacity dropoff', latitude: point.latitude + 0.02, longitude: point.longitude + 0.02 },
    ride_type: 'one_way',
    vehicle_category_id: config.categoryId,
    passenger_count: 1,
    children: 0,
    payment_method: 'cash',
  };
  const sentAt = now();
  const res = await rec.time('POST /rides/book', () => passenger.call('POST', '/api/v1/rides/book', passenger.token, body));
  passenger.booking = false;
  if (res.status !== 201 && res.status !== 200) return;
  const rideId = JSON.parse(res.body.toString('utf8')).id;
  if (rec.measuring) bookings[rideId] = [sentAt, now()];
  passenger.rideId = rideId;
  passenger.accepting = false;
  later(NO_BID_CANCEL_MS, () => {
    if (passenger.rideId === rideId && !passenger.accepting) {
      // Free to book again once the cancellation has committed (before, a booking is a 409: one live ride each).
      passenger.booking = true;
      rec
        .time('POST /rides/{id}/cancel', () => passenger.call('POST', `/api/v1/rides/${rideId}/cancel`, passenger.token, { reason: 'no offer' }), [409])
        .then(() => {
          passenger.booking = false;
          if (passenger.rideId === rideId) passenger.rideId = undefined;
        });
    }
  });
}

// --- IPC -----------------------------------------------------------------------------------

process.on('message', async (msg) => {
  try {
    if (msg.cmd === 'connect') {
      // Each user talks to one instance (its base), as an app behind a load balancer would. A phone
      // has a connection of its own; here each kind of call (heartbeat, nearby, ride steps) gets a pool
      // of its own per instance, opened up front (prewarm), so a heartbeat never waits in the bench
      // behind a slow nearby (one shared 128-socket pool queued heartbeats for seconds at 10k drivers).
      const callFor = (base, kind) => {
        const key = `${kind} ${base}`;
        if (!clients.has(key)) clients.set(key, client(base, { maxSockets: msg.maxSockets || 256 }));
        return clients.get(key);
      };
      drivers = msg.drivers.map((d) => ({
        ...d,
        call: callFor(d.base, 'ride'),
        heartbeatCall: callFor(d.base, 'heartbeat'),
        nearbyCall: callFor(d.base, 'nearby'),
        position: randomPoint(),
        bids: new Set(),
      }));
      passengers = msg.passengers.map((p) => ({ ...p, call: callFor(p.base, 'ride') }));
      const users = [...drivers.map((d) => [d, onDriverFrame]), ...passengers.map((p) => [p, onPassengerFrame])];
      for (const c of clients.values()) await c.prewarm();
      const results = await mapLimit(users, msg.concurrency || 64, ([u, onFrame]) => openSocket(u, u.base.replace('http', 'ws'), onFrame));
      process.send({ type: 'connected', ok: results.filter(Boolean).length, failed: results.filter((r) => !r).length });
    } else if (msg.cmd === 'run') {
      config = msg.config;
      running = true;
      for (const d of drivers) {
        every(HEARTBEAT_MS, Math.random() * HEARTBEAT_MS, () => heartbeat(d));
        every(NEARBY_MS, Math.random() * NEARBY_MS, () => nearby(d));
      }
      if (config.bookingIntervalMs) every(config.bookingIntervalMs, Math.random() * config.bookingIntervalMs, book);
      process.send({ type: 'running' });
    } else if (msg.cmd === 'measure') {
      rec.reset();
      bookings = {};
      arrivals = {};
      rec.measuring = true;
      const usage = process.cpuUsage();
      rec.cpuAt = usage.user + usage.system;
      rec.startedAt = performance.now();
      process.send({ type: 'measuring' });
    } else if (msg.cmd === 'stop') {
      rec.measuring = false;
      running = false;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const usage = process.cpuUsage();
      const cpuMs = (usage.user + usage.system - rec.cpuAt) / 1000;
      process.send({ type: 'stats', byLabel: rec.byLabel, bookings, arrivals, cpuMs, unexpectedCloses });
    } else if (msg.cmd === 'close') {
      for (const u of [...drivers, ...passengers]) {
        u.closing = true;
        if (u.socket) u.socket.terminate();
      }
      process.send({ type: 'closed' });
      setTimeout(() => process.exit(0), 50);
    }
  } catch (err) {
    process.send({ type: 'error', message: err.stack || String(err) });
  }
});
