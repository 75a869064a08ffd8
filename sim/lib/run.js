'use strict';

const { performance } = require('node:perf_hooks');
const { createRng, deriveSeed } = require('./rng');
const { LatencyBook } = require('./stats');
const { checkPassengerWallet, checkDriverWallet } = require('./money');
const { ApiClient } = require('./http');
const { LiveSocket } = require('./live');
const { createChat } = require('./chat');
const { createTrust } = require('./trust');
const { createSafety } = require('./safety');
const { createInbox } = require('./inbox');
const { createReceiverCheck } = require('./receivers');
const { createDrivers } = require('./drivers');
const { createPassengers } = require('./passengers');

const CENTRE = { latitude: 52.52, longitude: 13.405 };
const CITY = 'Berlin';
// The demo's city (8 drivers within 3 km of the centre) grows with the number of drivers so that
// their density stays the same: 200 drivers crammed into 3 km would all be within matching range of
// every pickup, and each booking would go to every driver of the city.
const DEMO_DRIVERS = 8;

/**
 * Runs one simulation against running service instance(s) through the public API and WebSocket
 * only. Returns {stats, violations, notes, map}; the caller prints and decides the exit code.
 * The people are in drivers.js and passengers.js; what they must receive is judged in inbox.js and
 * receivers.js.
 */
async function runSimulation(opts) {
  const o = {
    passengers: 12,
    drivers: 8,
    minutes: 1,
    seed: 1,
    otp: '123456',
    ttlMinutes: 1,
    eventTimeoutMs: 5000,
    heartbeatMs: 3000,
    pauseMs: 4000,
    pace: 1,
    progress: true,
    ...opts,
  };
  // How long the simulated people take (thinking before a bid, driving a leg, pausing between rides):
  // pace 0.25 plays the same city four times faster (the test suite's short run). Deadlines the
  // service is judged by (eventTimeoutMs) are not scaled.
  const act = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms * o.pace)));
  const bases = o.bases;
  const t0 = performance.now();
  const now = () => performance.now();
  // The ride traffic lasts o.minutes from when every user is signed up and credited: with hundreds
  // of users the set-up alone can take minutes.
  let endAt = Infinity;
  const nonce = String((Math.floor(Date.now() / 1000) + process.pid) % 10000).padStart(4, '0');
  const counters = {
    requests: 0,
    errors: 0,
    serverErrors: 0,
    rateLimited: 0,
    bids: 0,
    requested: 0,
    accepted: 0,
    completed: 0,
    cancelled: 0,
    expired: 0,
    excused: 0,
    tips: 0,
  };
  const endpointLatency = new LatencyBook();
  const eventLatency = new LatencyBook();
  const violations = [];
  const notes = [];
  const report = (kind, message) => violations.push({ kind, at: ((now() - t0) / 1000).toFixed(1), message });
  const api = new ApiClient({ latencies: endpointLatency, report, counters, capture: o.capture });
  const rides = new Map();
  const users = new Map();

  const inbox = createInbox({ eventTimeoutMs: o.eventTimeoutMs, report, counters, latencies: eventLatency, users, now });
  const { expectEvent, waitFor } = inbox;
  const chat = createChat({ api, report, expectEvent, counters });
  const trust = createTrust({ api, report, expectEvent, users });
  const safety = createSafety({ o, api, report, notes });
  const checkReceiver = createReceiverCheck({ report, chat, rides });
  const scale = Math.max(1, Math.sqrt(o.drivers / DEMO_DRIVERS));
  const inBatches = async (items, size, fn) => {
    const out = [];
    for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
    return out;
  };
  const ctx = {
    o,
    api,
    report,
    counters,
    notes,
    users,
    rides,
    expectEvent,
    waitFor,
    act,
    now,
    chat,
    trust,
    safety,
    centre: CENTRE,
    scale,
    nonce,
    inBatches,
    endAt: () => endAt,
  };
  const drivers = createDrivers(ctx);
  Object.assign(ctx, { drivers: drivers.list, drive: drivers.drive });
  const riders = createPassengers(ctx);

  const onMessage = (user, message, at) => {
    if (o.capture) o.capture.event(message);
    if (message.type === 'pong' || message.type === 'ride_snapshot') return;
    checkReceiver(user, message);
    inbox.deliver(user, message, at);
    if (user.role === 'driver') drivers.onEvent(user, message);
  };

  // ---- sign-up through the real OTP flow
  let phoneSeq = 0;
  const signUp = async (role, index) => {
    const base = bases[index % bases.length];
    phoneSeq += 1;
    const phone = `+1999${nonce}${String(phoneSeq).padStart(4, '0')}`;
    const who = `${role} #${index}`;
    const sent = await api.call(base, 'POST', '/auth/send-otp', { body: { phone }, label: 'POST /auth/send-otp', who });
    if (!sent.ok) return undefined;
    const verified = await api.call(base, 'POST', '/auth/verify-otp', { body: { phone, otp: o.otp }, label: 'POST /auth/verify-otp', who });
    if (!verified.ok) return undefined;
    const names = role === 'driver' ? ['Dana', 'Driver'] : ['Pat', 'Passenger'];
    const registered = await api.call(base, 'POST', '/auth/register', {
      token: verified.body.access_token,
      body: { role, first_name: names[0], last_name: `${names[1]} ${index}` },
      label: 'POST /auth/register',
      who,
    });
    if (!registered.ok) return undefined;
    const user = {
      id: registered.body.user.id,
      role,
      index,
      base,
      phone,
      token: registered.body.access_token,
      rng: createRng(deriveSeed(o.seed, role === 'driver' ? 10_000 + index : index)),
      inbox: new Map(),
      pending: new Set(),
      waiters: new Set(),
      beats: [],
      sent: [],
      path: [],
      bidRides: new Set(),
      openBids: new Map(),
      completed: [],
      walletFaresCents: [],
      tipsCents: [],
      feesCents: [],
      creditedCents: 0,
    };
    users.set(user.id, user);
    user.socket = new LiveSocket({
      base,
      token: user.token,
      onMessage: (m, at) => onMessage(user, m, at),
      onProblem: (p) => report('websocket', `${role} ${user.id}: ${p}`),
    });
    await user.socket.open();
    return user;
  };

  // ---- progress
  let progressTimer;
  const recent = [];
  const progressLine = () => {
    const secs = (now() - t0) / 1000;
    // Requests per second over the last 5 s, not since the start: the line shows the current load.
    recent.push({ t: now(), n: counters.requests });
    // Keep the newest sample at least 5 s old as the base (the line is printed every 5 s).
    while (recent.length > 2 && now() - recent[1].t >= 5000) recent.shift();
    const rate = recent.length > 1 ? ((counters.requests - recent[0].n) * 1000) / (now() - recent[0].t) : 0;
    const inProgress = [...rides.values()].filter((r) => ['accepted', 'driver_arrived', 'started'].includes(r.status)).length;
    return `[${secs.toFixed(0).padStart(4)}s] requested ${counters.requested}  accepted ${counters.accepted}  in progress ${inProgress}  completed ${counters.completed}  cancelled ${counters.cancelled}  expired ${counters.expired} | bids ${counters.bids} | ${rate.toFixed(1)} req/s | errors ${counters.errors} | violations ${violations.length}`;
  };
  if (o.progress) {
    const tty = process.stderr.isTTY;
    let ticks = 0;
    progressTimer = setInterval(() => {
      if (tty) process.stderr.write(`\r${progressLine()}\x1b[K`);
      else if (ticks++ % 5 === 0) process.stderr.write(`${progressLine()}\n`);
    }, 1000);
  }

  const categories = await api.call(bases[0], 'GET', '/rides/categories', { label: 'GET /rides/categories' });
  ctx.categoryId = Array.isArray(categories.body) && categories.body.length ? categories.body[0].id : 1;

  const driverUsers = (await inBatches([...Array(o.drivers).keys()], 4, (i) => signUp('driver', i))).filter(Boolean);
  await inBatches(driverUsers, 4, drivers.setUp);
  drivers.startHeartbeats();
  await safety.setUp(bases[0], nonce);
  const passengers = (await inBatches([...Array(o.passengers).keys()], 4, (i) => signUp('passenger', i))).filter(Boolean);
  if (drivers.list.length + passengers.length < o.drivers + o.passengers)
    notes.push(`${o.drivers + o.passengers - drivers.list.length - passengers.length} sign-ups failed`);
  const credits = riders.creditWallets(passengers);
  await riders.saveCards(passengers);

  const setupSeconds = (now() - t0) / 1000;
  endAt = now() + o.minutes * 60_000;
  // Passengers join over a ramp (up to a minute for hundreds), not all in the same three seconds.
  const rampMs = Math.max(3000, Math.min(60_000, o.passengers * 100));
  await Promise.all(passengers.map((p, i) => riders.ride(p, i, rampMs)));
  // Let the last events land before judging and counting money.
  await inbox.drain();
  await Promise.all([drivers.stopHeartbeats(), credits]);
  await auditWallets({ api, report, rides, passengers, drivers: drivers.list });

  if (progressTimer) {
    clearInterval(progressTimer);
    process.stderr.write(`${process.stderr.isTTY ? '\r' : ''}${progressLine()}\n`);
  }
  for (const u of users.values()) u.socket.close();
  safety.close();

  if (counters.excused)
    notes.push(`${counters.excused} ride_requested not expected after all: the driver's next heartbeat put it out of reach before the service matched`);
  const walletRides = [...rides.values()].filter((r) => r.paymentMethod === 'wallet' && r.outcome === 'completed').length;
  const cardRides = [...rides.values()].filter((r) => r.paymentMethod === 'card' && r.outcome === 'completed').length;
  const cardBooked = [...rides.values()].filter((r) => r.paymentMethod === 'card').length;
  return {
    seconds: (now() - t0) / 1000,
    setupSeconds,
    counters: {
      ...counters,
      inProgress: [...rides.values()].filter((r) => r.outcome === 'in_progress').length,
      walletRidesCompleted: walletRides,
      cardRidesCompleted: cardRides,
      cardRidesBooked: cardBooked,
      pongs: [...users.values()].reduce((s, u) => s + u.socket.pongs, 0),
    },
    users: { passengers: passengers.length, drivers: drivers.list.length, walletCredited: passengers.filter((p) => p.creditedCents > 0).length },
    endpoints: endpointLatency.summary(),
    events: eventLatency.summary(),
    violations,
    notes,
    map: {
      centre: CENTRE,
      city: CITY,
      drivers: drivers.list.map((d) => ({ id: d.id, path: d.path })),
      rides: [...rides.values()].map((r) => ({ id: r.id, code: r.code, pickup: r.pickup, dropoff: r.dropoff, outcome: r.outcome, surge: r.surge })),
    },
  };
}

/** Every wallet must equal what the simulation paid into and out of it (fares, credits, tips, earnings). */
async function auditWallets({ api, report, rides, passengers, drivers }) {
  for (const p of passengers) {
    const w = await api.call(p.base, 'GET', '/wallet', { token: p.token, label: 'GET /wallet', who: `passenger ${p.id}` });
    if (w.ok)
      for (const v of checkPassengerWallet({
        userId: p.id,
        balance: w.body.balance,
        creditedCents: p.creditedCents,
        walletFaresCents: p.walletFaresCents,
        tipsCents: p.tipsCents,
        feesCents: p.feesCents,
      }))
        report('money', v);
  }
  for (const d of drivers) {
    const w = await api.call(d.base, 'GET', '/wallet', { token: d.token, label: 'GET /wallet', who: `driver ${d.id}` });
    const items = [];
    for (let page = 1; page < 50; page++) {
      const e = await api.call(d.base, 'GET', `/driver/earnings?page=${page}&limit=100`, {
        token: d.token,
        label: 'GET /driver/earnings',
        who: `driver ${d.id}`,
      });
      if (!e.ok) break;
      items.push(...e.body.items);
      if (e.body.items.length < 100) break;
    }
    if (w.ok)
      for (const v of checkDriverWallet({
        userId: d.id,
        balance: w.body.balance,
        earningsItems: items,
        feesCents: d.feesCents,
        completedRides: d.completed.map((c) => ({ ...c, tipCents: rides.get(c.rideId)?.tipCents ?? null })),
      }))
        report('money', v);
  }
}

module.exports = { runSimulation, CENTRE };
