/* global module, require, process, setTimeout, clearTimeout, setInterval, clearInterval, setImmediate, performance */
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, run by node without a build step */
'use strict';
const { spawn } = require('node:child_process');
const { createRng, deriveSeed } = require('./rng');
const { distanceKm, offset, bearing, lerp, stepTowards } = require('./geo');
const { LatencyBook } = require('./stats');
const { cents, checkPassengerWallet, checkDriverWallet } = require('./money');
const { ApiClient } = require('./http');
const { LiveSocket } = require('./live');
const { createChat } = require('./chat');
const { bookForLater } = require('./ride-later');
const { createTrust } = require('./trust');

const CENTRE = { latitude: 52.52, longitude: 13.405 };
const DRIVER_SPEED_KM_S = 0.015; // 54 km/h while cruising
const EXPECTED_RADIUS_KM = 4; // well inside MATCHING_RADIUS_KM (5): must be told
const FORBIDDEN_RADIUS_KM = 6; // well outside it: must not be told
const WALLET_CREDIT = 150;
/** Share of bookings made at the passenger's own price (offered_fare), and of completed rides tipped. */
const OFFER_CHANCE = 0.2;
const TIP_CHANCE = 0.3;
/** A rider tips only while the wallet keeps this much for the next wallet fares. */
const TIP_RESERVE_CENTS = 6000;
// Each credit is a CLI process (a Nest start-up, seconds on a busy machine): a few dozen wallets are
// enough to show wallet payments in a run of hundreds of passengers.
const MAX_CREDITED_WALLETS = 40;
const RIDE_EVENTS = new Set(['ride_requested', 'ride_accepted', 'ride_status_changed', 'ride_cancelled', 'ride_tipped', 'ride_rated']);
// A driver weighs a few offers at a time, not every request in the city: without a cap, each
// booking draws a bid from nearly every idle driver.
const MAX_OPEN_BIDS = 3;
// About this many drivers bid on a request however many are online: in a city of hundreds, a
// booking that drew a bid from every idle driver would be a stampede on one ride no city sees.
const BIDDERS_PER_REQUEST = 10;
// How long a driver's received events are kept for matching (an event may arrive before the REST
// response that caused it; expectations look back this far).
const INBOX_KEEP_MS = 60_000;
// The demo's city (8 drivers within 3 km of the centre) grows with the number of drivers so that
// their density stays the same: 200 drivers crammed into 3 km would all be within matching range of
// every pickup, and each booking would go to every driver of the city.
const DEMO_DRIVERS = 8;
const MATCHING_RADIUS_KM = 5;

const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * Runs one simulation against running service instance(s) through the public API and WebSocket
 * only. Returns {stats, violations, notes, map}; the caller prints and decides the exit code.
 */
async function runSimulation(opts) {
  const o = { passengers: 12, drivers: 8, minutes: 1, seed: 1, otp: '123456', ttlMinutes: 1, eventTimeoutMs: 5000, heartbeatMs: 3000, pauseMs: 4000, pace: 1, progress: true, ...opts };
  // How long the simulated people take (thinking before a bid, driving a leg, pausing between rides):
  // pace 0.25 plays the same city four times faster (the test suite's short run). Deadlines the
  // service is judged by (eventTimeoutMs) are not scaled.
  const act = (ms) => sleep(ms * o.pace);
  const bases = o.bases;
  const t0 = performance.now();
  const now = () => performance.now();
  // The ride traffic lasts o.minutes from when every user is signed up and credited: with hundreds
  // of users the set-up alone can take minutes.
  let endAt = Infinity;
  const nonce = String((Math.floor(Date.now() / 1000) + process.pid) % 10000).padStart(4, '0');
  const counters = { requests: 0, errors: 0, serverErrors: 0, rateLimited: 0, bids: 0, requested: 0, accepted: 0, completed: 0, cancelled: 0, expired: 0, excused: 0, tips: 0 };
  const endpointLatency = new LatencyBook();
  const eventLatency = new LatencyBook();
  const violations = [];
  const notes = [];
  const report = (kind, message) => violations.push({ kind, at: ((now() - t0) / 1000).toFixed(1), message });
  const api = new ApiClient({ latencies: endpointLatency, report, counters, capture: o.capture });
  const rides = new Map();
  const users = new Map();
  const drivers = [];
  const passengers = [];
  // Expectations and received events are indexed by user and ride: at hundreds of users a scan of
  // every pending expectation per message stalls the simulator (and its timings) for seconds.
  const pending = new Set();

  // ---- expectations: an event that must reach a user within eventTimeoutMs of the REST response
  // `excused(e)`, asked at the deadline, may clear a miss the simulation itself cannot rule out.
  const expectEvent = (user, label, rideId, match, causeAt, excused) => {
    const received = user.inbox.get(rideId);
    const found = received && received.messages.find((m) => match(m.message));
    if (found) return eventLatency.add(label, Math.max(0, found.at - causeAt));
    const e = { user, label, rideId, match, causeAt, deadline: causeAt + o.eventTimeoutMs, excused };
    pending.add(e);
    user.pending.add(e);
  };
  const chat = createChat({ api, report, expectEvent, counters });
  const settle = (e) => {
    pending.delete(e);
    e.user.pending.delete(e);
  };
  const scale = Math.max(1, Math.sqrt(o.drivers / DEMO_DRIVERS));
  const reach = Math.min(1, (MATCHING_RADIUS_KM / (3 * scale)) ** 2); // share of drivers told of a request
  const bidChance = Math.min(0.85, BIDDERS_PER_REQUEST / Math.max(1, o.drivers * reach));
  let prunedAt = now();
  // Judged after the event loop has read the sockets: on a busy machine a late timer would otherwise
  // call an event missing that sits unread in a socket buffer.
  const sweep = () => setImmediate(judge);
  const judge = () => {
    for (const e of pending) {
      if (now() > e.deadline) {
        settle(e);
        if (e.excused && e.excused(e)) {
          counters.excused++;
          continue;
        }
        report('missing-event', `${e.label} for ride ${e.rideId} did not reach ${e.user.role} ${e.user.id} within ${o.eventTimeoutMs} ms`);
      }
    }
    if (now() - prunedAt < 5000) return;
    prunedAt = now();
    for (const u of users.values()) for (const [rideId, r] of u.inbox) if (now() - r.last > INBOX_KEEP_MS) u.inbox.delete(rideId);
  };
  const sweeper = setInterval(sweep, 250);
  const trust = createTrust({ api, report, expectEvent, users });

  const onMessage = (user, message, at) => {
    if (o.capture) o.capture.event(message);
    if (message.type === 'pong' || message.type === 'ride_snapshot') return;
    const received = user.inbox.get(message.ride_id) || { messages: [], last: at };
    received.messages.push({ message, at });
    received.last = at;
    user.inbox.set(message.ride_id, received);
    checkReceiver(user, message);
    for (const e of user.pending) {
      if (e.rideId === message.ride_id && e.match(message)) {
        settle(e);
        eventLatency.add(e.label, Math.max(0, at - e.causeAt));
      }
    }
    for (const w of [...user.waiters]) if (w.match(message)) w.resolve(message);
    if (user.role === 'driver') driverOnEvent(user, message);
  };

  // ---- events that reached the wrong user
  const checkReceiver = (user, message) => {
    const ride = message.data && message.data.ride;
    if (message.type === 'error') return report('wrong-event', `${user.role} ${user.id} got error ${JSON.stringify(message.data)}`);
    if (chat.checkReceiver(user, message, rides)) return;
    if (user.role === 'passenger') {
      if (message.type === 'ride_requested') return report('wrong-receiver', `passenger ${user.id} got ride_requested for ${message.ride_id}`);
      if (message.type === 'bid_submitted') {
        const r = rides.get(message.data.bid.ride_id);
        // A bid can beat the booking's own response: judged once that response is in.
        if (!r && user.booking) return user.booking.earlyBids.push(message.data.bid.ride_id);
        if (!r || r.passengerId !== user.id) report('wrong-receiver', `passenger ${user.id} got bid_submitted for another passenger's ride ${message.data.bid.ride_id}`);
        return;
      }
      if (ride && ride.passenger && ride.passenger.id !== user.id) report('wrong-receiver', `passenger ${user.id} got ${message.type} for passenger ${ride.passenger.id}'s ride ${ride.id}`);
      return;
    }
    if (message.type === 'bid_submitted' || message.type === 'driver_location') return report('wrong-receiver', `driver ${user.id} got ${message.type}`);
    if (message.type === 'ride_requested') {
      const positions = [...user.beats.slice(-2).map((b) => b.pos), ...(user.inFlight ? [user.inFlight] : [])];
      const nearest = Math.min(...positions.map((p) => distanceKm(p, ride.pickup)));
      if (positions.length === 0 || nearest > FORBIDDEN_RADIUS_KM) report('wrong-receiver', `driver ${user.id} got ride_requested for ${ride.id} while ${nearest.toFixed(1)} km from the pickup`);
      return;
    }
    if (RIDE_EVENTS.has(message.type) && ride) {
      if (message.data.bid_status) {
        if (!user.bidRides.has(ride.id)) report('wrong-receiver', `driver ${user.id} got ${message.type} (${message.data.bid_status}) for ride ${ride.id} without having bid on it`);
      } else if (!ride.driver || ride.driver.id !== user.id) {
        report('wrong-receiver', `driver ${user.id} got ${message.type} for ride ${ride.id} assigned to ${ride.driver ? ride.driver.id : 'nobody'}`);
      }
    }
  };

  const waitFor = (user, match, ms) =>
    new Promise((resolve) => {
      const w = { match, resolve: (m) => done(m) };
      const timer = setTimeout(() => done(null), ms);
      const done = (m) => {
        clearTimeout(timer);
        user.waiters.delete(w);
        resolve(m);
      };
      user.waiters.add(w);
    });

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
      id: registered.body.user.id, role, index, base, phone, token: registered.body.access_token,
      rng: createRng(deriveSeed(o.seed, role === 'driver' ? 10_000 + index : index)),
      inbox: new Map(), pending: new Set(), waiters: new Set(), beats: [], sent: [], path: [], bidRides: new Set(), openBids: new Map(), completed: [], walletFaresCents: [], tipsCents: [], creditedCents: 0,
    };
    users.set(user.id, user);
    user.socket = new LiveSocket({ base, token: user.token, onMessage: (m, at) => onMessage(user, m, at), onProblem: (p) => report('websocket', `${role} ${user.id}: ${p}`) });
    await user.socket.open();
    return user;
  };

  const inBatches = async (items, size, fn) => {
    const out = [];
    for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
    return out;
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
  const categoryId = Array.isArray(categories.body) && categories.body.length ? categories.body[0].id : 1;

  // ---- drivers: profile, online, heartbeats along plausible paths
  const driverUsers = (await inBatches([...Array(o.drivers).keys()], 4, (i) => signUp('driver', i))).filter(Boolean);
  await inBatches(driverUsers, 4, async (d) => {
    d.pos = offset(CENTRE, d.rng.between(0.2, 3 * scale), d.rng.between(0, 360));
    d.waypoint = offset(CENTRE, d.rng.between(0.5, 3 * scale), d.rng.between(0, 360));
    d.leg = null;
    d.online = false;
    await api.call(d.base, 'PUT', '/driver/profile', {
      token: d.token,
      body: { vehicle_category_id: categoryId, vehicle_make: 'Toyota', vehicle_model: 'Corolla', vehicle_plate: `SIM${nonce}${d.index}`, vehicle_color: 'White', vehicle_year: 2021, license_number: `L-${nonce}-${d.index}` },
      label: 'PUT /driver/profile',
      who: `driver ${d.id}`,
    });
    const online = await api.call(d.base, 'PUT', '/driver/status', { token: d.token, body: { is_online: true }, label: 'PUT /driver/status', who: `driver ${d.id}` });
    d.online = online.ok;
    drivers.push(d);
  });
  const beat = async (d) => {
    const t = now();
    if (d.leg) d.pos = lerp(d.leg.from, d.leg.to, (t - d.leg.startAt) / (d.leg.endAt - d.leg.startAt));
    else {
      if (distanceKm(d.pos, d.waypoint) < 0.05) d.waypoint = offset(CENTRE, d.rng.between(0.3, 3 * scale), d.rng.between(0, 360));
      d.pos = stepTowards(d.pos, d.waypoint, DRIVER_SPEED_KM_S * (o.heartbeatMs / 1000));
    }
    const pos = { ...d.pos };
    const last = d.path[d.path.length - 1];
    d.inFlight = pos;
    d.sent.push({ pos, sentAt: t });
    if (d.sent.length > 10) d.sent.shift();
    const res = await api.call(d.base, 'PUT', '/driver/location', {
      token: d.token,
      body: { latitude: pos.latitude, longitude: pos.longitude, heading: last ? Math.round(bearing(last, pos)) : 0, speed: last ? Math.min(33, Math.round((distanceKm(last, pos) * 1000 * 10) / (o.heartbeatMs / 1000)) / 10) : 0, accuracy: 5 },
      label: 'PUT /driver/location',
      who: `driver ${d.id}`,
    });
    d.inFlight = null;
    if (res.ok) {
      d.beats.push({ pos, at: res.at });
      if (d.beats.length > 3) d.beats.shift();
      d.path.push(pos);
    }
  };
  let beating = true;
  const heartbeatLoops = drivers.map(async (d) => {
    await sleep(d.rng.between(0, o.heartbeatMs));
    while (beating) {
      await beat(d);
      await sleep(o.heartbeatMs + d.rng.between(-300, 300));
    }
  });

  // ---- drivers react to events: bid on requests, drive the rides they win
  const driverOnEvent = (d, message) => {
    const ride = message.data && message.data.ride;
    // Any later event of a ride ends the driver's wait on its bid (won, lost, withdrawn, cancelled).
    if (message.type !== 'ride_requested') d.openBids.delete(message.ride_id);
    for (const [rideId, at] of d.openBids) if (now() - at > 90_000) d.openBids.delete(rideId);
    if (message.type === 'ride_requested' && !d.currentRide && d.openBids.size < MAX_OPEN_BIDS) {
      if (!d.rng.chance(bidChance)) return;
      const total = ride.estimate && ride.estimate.breakdown ? ride.estimate.breakdown.total : 5 + distanceKm(ride.pickup, ride.dropoff) * 1.5;
      // A bid equal to the passenger's own price is how a driver takes it.
      const amount = ride.offered_fare && d.rng.chance(0.5) ? ride.offered_fare : Math.round(total * d.rng.between(0.9, 1.25) * 100) / 100;
      const eta = Math.max(1, Math.round(distanceKm(d.pos, ride.pickup) / 0.4));
      act(d.rng.between(300, 2000)).then(async () => {
        if (d.currentRide || !beating || d.openBids.size >= MAX_OPEN_BIDS) return;
        d.bidRides.add(ride.id);
        d.openBids.set(ride.id, now());
        const res = await api.call(d.base, 'POST', `/driver/rides/${ride.id}/bid`, { token: d.token, body: { amount, eta_minutes: eta }, label: 'POST /driver/rides/{id}/bid', expect: [409], who: `driver ${d.id}` });
        if (!res.ok) {
          d.openBids.delete(ride.id);
          return;
        }
        counters.bids++;
        const r = rides.get(ride.id);
        const p = r && users.get(r.passengerId);
        if (p) expectEvent(p, 'bid_submitted', ride.id, (m) => m.type === 'bid_submitted' && m.data.bid.id === res.body.id && m.data.bid.amount === amount, res.at);
      });
    }
    if (message.type === 'ride_accepted' && ride && ride.driver && ride.driver.id === d.id && !message.data.bid_status) drive(d, ride.id);
  };

  const drive = async (d, rideId) => {
    if (d.currentRide === rideId) return;
    const r = rides.get(rideId);
    if (!r) return;
    d.currentRide = rideId;
    const to = async (status, waitMs, leg) => {
      if (leg) d.leg = { ...leg, startAt: now(), endAt: now() + waitMs * o.pace };
      await act(waitMs);
      if (r.cancelIntent) return false;
      r.driverSent = status;
      const res = await api.call(d.base, 'PUT', `/rides/${rideId}/status`, { token: d.token, body: { status }, label: `PUT /rides/{id}/status ${status}`, expect: [409], who: `driver ${d.id}` });
      if (res.status === 409) {
        // A 409 breaks the contract only if the ride was in the status this step starts from: read it
        // back instead of trusting the simulation's own bookkeeping of cancels in flight.
        if (!r.cancelIntent) {
          const current = await api.call(d.base, 'GET', `/rides/${rideId}`, { token: d.token, label: 'GET /rides/{id}', who: `driver ${d.id}` });
          const stepFrom = { driver_arrived: 'accepted', started: 'driver_arrived', completed: 'started' }[status];
          if (!current.ok || current.body.status === stepFrom) {
            report('unexpected-status', `PUT /rides/{id}/status ${status} (driver ${d.id}) → 409 on ride ${rideId}, which is ${current.body?.status}`);
          }
        }
        return false;
      }
      if (!res.ok) return false;
      r.status = status;
      const p = users.get(r.passengerId);
      const match = (m) => m.type === 'ride_status_changed' && m.data.ride.status === status;
      expectEvent(p, 'ride_status_changed', rideId, match, res.at);
      expectEvent(d, 'ride_status_changed', rideId, match, res.at);
      return true;
    };
    try {
      const pickup = { latitude: r.pickup.latitude, longitude: r.pickup.longitude };
      if (!(await to('driver_arrived', d.rng.between(5000, 9000), { from: { ...d.pos }, to: pickup }))) return;
      d.leg = { from: pickup, to: pickup, startAt: now(), endAt: now() + 1 };
      await chat.atPickup(d, users.get(r.passengerId), r);
      if (!(await to('started', d.rng.between(1500, 3000)))) return;
      if (!(await to('completed', d.rng.between(8000, 14000), { from: pickup, to: r.dropoff }))) return;
      d.pos = { latitude: r.dropoff.latitude, longitude: r.dropoff.longitude };
      r.outcome = 'completed';
      counters.completed++;
      d.completed.push({ rideId, fareCents: r.fareCents, paymentMethod: r.paymentMethod });
      if (r.paymentMethod === 'wallet') users.get(r.passengerId).walletFaresCents.push(r.fareCents);
      await trust.rate(d, r);
    } finally {
      d.leg = null;
      d.currentRide = null;
    }
  };

  // ---- passengers: estimate, book, collect bids, accept / cancel / let expire
  const passengerUsers = (await inBatches([...Array(o.passengers).keys()], 4, (i) => signUp('passenger', i))).filter(Boolean);
  passengers.push(...passengerUsers);
  if (drivers.length + passengers.length < o.drivers + o.passengers) notes.push(`${o.drivers + o.passengers - drivers.length - passengers.length} sign-ups failed`);

  const walletUsers = passengers.filter((p) => p.rng.chance(0.5)).slice(0, MAX_CREDITED_WALLETS);
  // Credited while the rides run: a passenger pays cash until the CLI has credited its wallet.
  let credits = Promise.resolve();
  if (walletUsers.length && o.creditCmd) {
    const [cmd, ...cmdArgs] = o.creditCmd.split(/\s+/).filter(Boolean);
    let failures = 0;
    credits = inBatches(walletUsers, 2, async (p) => {
      const ok = await new Promise((resolve) => {
        const child = spawn(cmd, [...cmdArgs, String(p.id), WALLET_CREDIT.toFixed(2), '--reason', 'sim'], { env: o.creditEnv || process.env, stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.on('data', (c) => (err += c));
        child.on('error', (e) => resolve(e.message));
        child.on('exit', (code) => resolve(code === 0 ? true : err.trim().split('\n').slice(-1)[0] || `exit ${code}`));
      });
      if (ok === true) p.creditedCents = cents(WALLET_CREDIT);
      else if (failures++ === 0) notes.push(`wallet credit failed (${ok}); those passengers pay cash`);
    });
  } else if (walletUsers.length) {
    notes.push('no --credit-cmd: every ride is paid in cash');
  }

  const ridePayload = (p) => {
    const pickup = offset(CENTRE, p.rng.between(0, 2.5 * scale), p.rng.between(0, 360));
    const dropoff = offset(pickup, p.rng.between(1, 4), p.rng.between(0, 360));
    return {
      pickup: { address: `Pickup ${p.index}-${p.rides || 0}`, ...pickup },
      dropoff: { address: `Drop-off ${p.index}-${p.rides || 0}`, ...dropoff },
      ride_type: 'one_way', vehicle_category_id: categoryId, passenger_count: 1, children: 0,
    };
  };

  const expectRequested = (ride, sentAt, causeAt) => {
    for (const d of drivers) {
      const last = d.beats[d.beats.length - 1];
      if (!d.online || !last) continue;
      const age = sentAt - last.at;
      // The matcher sees a heartbeat as soon as it is answered (live positions), and forgets it after
      // DRIVER_LOCATION_MAX_AGE_SECONDS (60 by default): every driver whose last answered report is
      // fresh and well inside the radius (also where a report in flight would put it) must be told.
      if (age < 0 || age > 30_000) continue;
      const positions = [last.pos, ...(d.inFlight ? [d.inFlight] : [])];
      if (positions.every((pos) => distanceKm(pos, ride.pickup) < EXPECTED_RADIUS_KM)) {
        // The service matches after its response, on the position it has then: a heartbeat sent
        // after the booking may already place the driver (fast on a leg to a pickup) out of reach.
        const movedAway = (e) => d.sent.some((b) => b.sentAt > sentAt && b.sentAt <= e.deadline && distanceKm(b.pos, ride.pickup) >= EXPECTED_RADIUS_KM);
        expectEvent(d, 'ride_requested', ride.id, (m) => m.type === 'ride_requested', causeAt, movedAway);
      }
    }
  };

  const cancel = async (p, r, reason) => {
    r.cancelIntent = true;
    const res = await api.call(p.base, 'POST', `/rides/${r.id}/cancel`, { token: p.token, body: { reason }, label: 'POST /rides/{id}/cancel', expect: [409], who: `passenger ${p.id}` });
    if (res.status === 409) {
      if (!['started', 'completed'].includes(r.driverSent) && r.status !== 'expired') report('unexpected-status', `POST /rides/{id}/cancel (passenger ${p.id}) → 409 on ride ${r.id} (${r.status})`);
      r.cancelIntent = false;
      return false;
    }
    if (!res.ok) return false;
    r.status = 'cancelled';
    r.outcome = 'cancelled';
    counters.cancelled++;
    const match = (m) => m.type === 'ride_cancelled' && m.data.cancelled_by === 'passenger';
    expectEvent(p, 'ride_cancelled', r.id, match, res.at);
    if (r.driverId) expectEvent(users.get(r.driverId), 'ride_cancelled', r.id, match, res.at);
    return true;
  };

  const oneRide = async (p, plan) => {
    const payload = ridePayload(p);
    p.rides = (p.rides || 0) + 1;
    const estimate = await api.call(p.base, 'POST', '/rides/estimate', { token: p.token, body: payload, label: 'POST /rides/estimate', who: `passenger ${p.id}` });
    const paymentMethod = p.creditedCents > 0 && p.rng.chance(0.6) ? 'wallet' : 'cash';
    // Some riders name their own price: near the estimate, well above MIN_OFFER_PERCENT (70 %) of it.
    if (estimate.ok && p.rng.chance(OFFER_CHANCE)) payload.offered_fare = Math.round(estimate.body.breakdown.total * p.rng.between(0.85, 1.05) * 100) / 100;
    const sentAt = now();
    p.booking = { earlyBids: [] };
    const booked = await api.call(p.base, 'POST', '/rides/book', { token: p.token, body: { ...payload, payment_method: paymentMethod }, label: 'POST /rides/book', who: `passenger ${p.id}` });
    const { earlyBids } = p.booking;
    p.booking = null;
    const ride = booked.ok ? booked.body : {};
    for (const rideId of earlyBids) {
      if (rideId !== ride.id) report('wrong-receiver', `passenger ${p.id} got bid_submitted for another passenger's ride ${rideId}`);
    }
    if (!booked.ok) return act(2000);
    const surge = ride.estimate?.breakdown?.surge_multiplier ?? 1;
    const r = { id: ride.id, code: ride.ride_code, passengerId: p.id, pickup: ride.pickup, dropoff: ride.dropoff, status: 'requested', outcome: 'in_progress', paymentMethod, surge };
    rides.set(r.id, r);
    counters.requested++;
    expectRequested(r, sentAt, booked.at);

    if (plan === 'expire') {
      const expired = await waitFor(p, (m) => m.ride_id === r.id && m.type === 'ride_status_changed' && m.data.ride.status === 'expired', o.ttlMinutes * 60_000 + 30_000);
      if (expired) {
        r.status = 'expired';
        r.outcome = 'expired';
        counters.expired++;
      } else if (now() < endAt + (o.drainMs ?? 0)) {
        report('missing-event', `ride ${r.id} was not expired within RIDE_REQUEST_TTL_MINUTES (${o.ttlMinutes}) + 30 s`);
      }
      return;
    }
    if (plan === 'cancel-requested') {
      await act(p.rng.between(1500, 4000));
      await cancel(p, r, 'changed my mind');
      return;
    }
    // Collect bids: the first one, then a little longer for competitors. When every bidder got
    // busy meanwhile (409 on accept), wait for a second round before giving up.
    let accepted;
    let offered = 0;
    for (let round = 0; round < 2 && !accepted; round++) {
      const bids = new Map();
      // Bids that arrived before the booking's response are in the inbox already.
      if (round === 0) for (const { message: m } of p.inbox.get(r.id)?.messages ?? []) if (m.type === 'bid_submitted') bids.set(m.data.bid.driver.id, m.data.bid);
      const collectUntil = now() + 12_000 * o.pace;
      // The first bid for up to 12 s, then each next one for up to 1.5 s, three at most (at pace 1).
      while (now() < collectUntil && bids.size < 3) {
        const m = await waitFor(p, (x) => x.type === 'bid_submitted' && x.data.bid.ride_id === r.id, bids.size ? 1500 * o.pace : collectUntil - now());
        if (!m) break;
        bids.set(m.data.bid.driver.id, m.data.bid);
      }
      const ordered = [...bids.values()].sort((a, b) => a.amount - b.amount);
      offered += ordered.length;
      for (const bid of ordered) {
        const res = await api.call(p.base, 'POST', `/rides/${r.id}/bids/${bid.id}/accept`, { token: p.token, label: 'POST /rides/{id}/bids/{bid}/accept', expect: [409], who: `passenger ${p.id}` });
        if (res.ok) {
          accepted = { bid, at: res.at };
          break;
        }
      }
      if (!ordered.length) break;
    }
    if (!accepted) {
      await cancel(p, r, offered ? 'every driver got busy' : 'no bids');
      return;
    }
    r.status = 'accepted';
    r.driverId = accepted.bid.driver.id;
    r.fareCents = cents(accepted.bid.amount);
    counters.accepted++;
    const winner = users.get(r.driverId);
    const match = (m) => m.type === 'ride_accepted' && !m.data.bid_status && m.data.ride.driver && m.data.ride.driver.id === r.driverId;
    expectEvent(p, 'ride_accepted', r.id, match, accepted.at);
    if (winner) {
      expectEvent(winner, 'ride_accepted', r.id, match, accepted.at);
      // The driver acts on ride_accepted; should it be lost (a violation already), the ride still moves.
      setTimeout(() => drive(winner, r.id), o.eventTimeoutMs + 500);
    }
    if (plan === 'cancel-accepted') {
      await act(p.rng.between(1000, 3000));
      if (await cancel(p, r, 'found another ride')) return;
    }
    const ended = waitFor(p, (m) => m.ride_id === r.id && ((m.type === 'ride_status_changed' && m.data.ride.status === 'completed') || m.type === 'ride_cancelled'), 90_000);
    await trust.shareTrip(p, r.id);
    const done = await ended;
    if (!done) report('stuck-ride', `ride ${r.id} neither completed nor cancelled within 90 s of acceptance`);
    else if (done.type === 'ride_status_changed') {
      await trust.rate(p, r);
      await maybeTip(p, r);
    }
    else if (r.status !== 'completed') await sleep(200);
  };

  /** Some riders with a credited wallet tip after the ride (cash rides too), keeping enough for their next fares. */
  const maybeTip = async (p, r) => {
    const spent = [...p.walletFaresCents, ...p.tipsCents].reduce((sum, c) => sum + c, 0) + (r.paymentMethod === 'wallet' ? r.fareCents : 0);
    const tipCents = Math.round(p.rng.between(1, 3) * 100);
    if (p.creditedCents - spent < tipCents + TIP_RESERVE_CENTS || !p.rng.chance(TIP_CHANCE)) return;
    await act(p.rng.between(500, 1500));
    const res = await api.call(p.base, 'POST', `/rides/${r.id}/tip`, { token: p.token, body: { amount: tipCents / 100 }, label: 'POST /rides/{id}/tip', who: `passenger ${p.id}` });
    if (!res.ok) return;
    p.tipsCents.push(tipCents);
    r.tipCents = tipCents;
    counters.tips++;
    const winner = users.get(r.driverId);
    if (winner) expectEvent(winner, 'ride_tipped', r.id, (m) => m.type === 'ride_tipped' && cents(m.data.tip.amount) === tipCents, res.at);
  };

  const setupSeconds = (now() - t0) / 1000;
  endAt = now() + o.minutes * 60_000;
  // Passengers join over a ramp (up to a minute for hundreds), not all in the same three seconds.
  const rampMs = Math.max(3000, Math.min(60_000, o.passengers * 100));
  const passengerLoops = passengers.map(async (p, i) => {
    await act(p.rng.between(0, rampMs));
    let first = true;
    while (now() < endAt) {
      const canExpire = now() + o.ttlMinutes * 60_000 + 20_000 < endAt + (o.drainMs ?? 0);
      let plan = 'normal';
      const x = p.rng.next();
      if (first && canExpire && (i === 0 || x < 0.15)) plan = 'expire';
      else if (x < 0.27) plan = 'cancel-requested';
      else if (x < 0.4) plan = 'cancel-accepted';
      first = false;
      // Now and then a rider books for later too (the ride waits beside the rides for now); the
      // second rider does at once, so that every run, however short, shows it.
      if ((i === 1 && !p.rides) || p.rng.chance(0.1)) await bookForLater({ api, p, payload: ridePayload(p), report, counters });
      await oneRide(p, plan);
      await act(p.rng.between(1000, Math.max(1000, o.pauseMs)));
    }
  });

  await Promise.all(passengerLoops);
  // Let the last events land before judging and counting money.
  const settleUntil = now() + o.eventTimeoutMs + 500;
  while (pending.size && now() < settleUntil) await sleep(200);
  judge();
  beating = false;
  await Promise.all([...heartbeatLoops, credits]);

  // ---- money
  for (const p of passengers) {
    const w = await api.call(p.base, 'GET', '/wallet', { token: p.token, label: 'GET /wallet', who: `passenger ${p.id}` });
    if (w.ok) for (const v of checkPassengerWallet({ userId: p.id, balance: w.body.balance, creditedCents: p.creditedCents, walletFaresCents: p.walletFaresCents, tipsCents: p.tipsCents })) report('money', v);
  }
  for (const d of drivers) {
    const w = await api.call(d.base, 'GET', '/wallet', { token: d.token, label: 'GET /wallet', who: `driver ${d.id}` });
    const items = [];
    for (let page = 1; page < 50; page++) {
      const e = await api.call(d.base, 'GET', `/driver/earnings?page=${page}&limit=100`, { token: d.token, label: 'GET /driver/earnings', who: `driver ${d.id}` });
      if (!e.ok) break;
      items.push(...e.body.items);
      if (e.body.items.length < 100) break;
    }
    if (w.ok) for (const v of checkDriverWallet({ userId: d.id, balance: w.body.balance, earningsItems: items, completedRides: d.completed.map((c) => ({ ...c, tipCents: rides.get(c.rideId)?.tipCents ?? null })) })) report('money', v);
  }

  clearInterval(sweeper);
  if (progressTimer) {
    clearInterval(progressTimer);
    process.stderr.write(`${process.stderr.isTTY ? '\r' : ''}${progressLine()}\n`);
  }
  for (const u of users.values()) u.socket.close();

  if (counters.excused) notes.push(`${counters.excused} ride_requested not expected after all: the driver's next heartbeat put it out of reach before the service matched`);
  const walletRides = [...rides.values()].filter((r) => r.paymentMethod === 'wallet' && r.outcome === 'completed').length;
  return {
    seconds: (now() - t0) / 1000,
    setupSeconds,
    counters: { ...counters, inProgress: [...rides.values()].filter((r) => r.outcome === 'in_progress').length, walletRidesCompleted: walletRides, pongs: [...users.values()].reduce((s, u) => s + u.socket.pongs, 0) },
    users: { passengers: passengers.length, drivers: drivers.length, walletCredited: passengers.filter((p) => p.creditedCents > 0).length },
    endpoints: endpointLatency.summary(),
    events: eventLatency.summary(),
    violations,
    notes,
    map: {
      centre: CENTRE,
      drivers: drivers.map((d) => ({ id: d.id, path: d.path })),
      rides: [...rides.values()].map((r) => ({ id: r.id, code: r.code, pickup: r.pickup, dropoff: r.dropoff, outcome: r.outcome, surge: r.surge })),
    },
  };
}

module.exports = { runSimulation, CENTRE };
