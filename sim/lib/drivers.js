'use strict';
/**
 * The simulated drivers: a profile, online, heartbeats along plausible paths; they bid on the
 * requests they are told of and drive the rides they win, checking each status answer and event.
 */
const { distanceKm, offset, bearing, lerp, stepTowards } = require('./geo');

const DRIVER_SPEED_KM_S = 0.015; // 54 km/h while cruising
// A driver weighs a few offers at a time, not every request in the city: without a cap, each
// booking draws a bid from nearly every idle driver.
const MAX_OPEN_BIDS = 3;
// About this many drivers bid on a request however many are online: in a city of hundreds, a
// booking that drew a bid from every idle driver would be a stampede on one ride no city sees.
const BIDDERS_PER_REQUEST = 10;
const MATCHING_RADIUS_KM = 5;
/** With o.noShowWaitSeconds (the service's NO_SHOW_WAIT_SECONDS, the demo's), share of pickups where the passenger never comes (o.noShowChance overrides). */
const NO_SHOW_CHANCE = 0.15;

const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** ctx: { o, api, report, counters, users, rides, expectEvent, act, now, chat, trust, centre, scale, nonce, categoryId }. */
function createDrivers(ctx) {
  const { o, api, report, counters, users, rides, expectEvent, act, now, chat, trust, centre, scale } = ctx;
  const drivers = [];
  const reach = Math.min(1, (MATCHING_RADIUS_KM / (3 * scale)) ** 2); // share of drivers told of a request
  const bidChance = Math.min(0.85, BIDDERS_PER_REQUEST / Math.max(1, o.drivers * reach));
  let beating = true;
  let loops = [];

  const setUp = async (d) => {
    d.pos = offset(centre, d.rng.between(0.2, 3 * scale), d.rng.between(0, 360));
    d.waypoint = offset(centre, d.rng.between(0.5, 3 * scale), d.rng.between(0, 360));
    d.leg = null;
    d.online = false;
    await api.call(d.base, 'PUT', '/driver/profile', {
      token: d.token,
      body: {
        vehicle_category_id: ctx.categoryId,
        vehicle_make: 'Toyota',
        vehicle_model: 'Corolla',
        vehicle_plate: `SIM${ctx.nonce}${d.index}`,
        vehicle_color: 'White',
        vehicle_year: 2021,
        license_number: `L-${ctx.nonce}-${d.index}`,
      },
      label: 'PUT /driver/profile',
      who: `driver ${d.id}`,
    });
    const online = await api.call(d.base, 'PUT', '/driver/status', {
      token: d.token,
      body: { is_online: true },
      label: 'PUT /driver/status',
      who: `driver ${d.id}`,
    });
    d.online = online.ok;
    drivers.push(d);
  };

  const beat = async (d) => {
    const t = now();
    if (d.leg) d.pos = lerp(d.leg.from, d.leg.to, (t - d.leg.startAt) / (d.leg.endAt - d.leg.startAt));
    else {
      if (distanceKm(d.pos, d.waypoint) < 0.05) d.waypoint = offset(centre, d.rng.between(0.3, 3 * scale), d.rng.between(0, 360));
      d.pos = stepTowards(d.pos, d.waypoint, DRIVER_SPEED_KM_S * (o.heartbeatMs / 1000));
    }
    const pos = { ...d.pos };
    const last = d.path[d.path.length - 1];
    d.inFlight = pos;
    d.sent.push({ pos, sentAt: t });
    if (d.sent.length > 10) d.sent.shift();
    const res = await api.call(d.base, 'PUT', '/driver/location', {
      token: d.token,
      body: {
        latitude: pos.latitude,
        longitude: pos.longitude,
        heading: last ? Math.round(bearing(last, pos)) : 0,
        speed: last ? Math.min(33, Math.round((distanceKm(last, pos) * 1000 * 10) / (o.heartbeatMs / 1000)) / 10) : 0,
        accuracy: 5,
      },
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

  const startHeartbeats = () => {
    loops = drivers.map(async (d) => {
      await sleep(d.rng.between(0, o.heartbeatMs));
      while (beating) {
        await beat(d);
        await sleep(o.heartbeatMs + d.rng.between(-300, 300));
      }
    });
  };

  const stopHeartbeats = () => {
    beating = false;
    return Promise.all(loops);
  };

  /** Bid on requests, drive the rides won. */
  const onEvent = (d, message) => {
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
        const res = await api.call(d.base, 'POST', `/driver/rides/${ride.id}/bid`, {
          token: d.token,
          body: { amount, eta_minutes: eta },
          label: 'POST /driver/rides/{id}/bid',
          expect: [409],
          who: `driver ${d.id}`,
        });
        if (!res.ok) {
          d.openBids.delete(ride.id);
          return;
        }
        counters.bids++;
        const r = rides.get(ride.id);
        const p = r && users.get(r.passengerId);
        if (p)
          expectEvent(p, 'bid_submitted', ride.id, (m) => m.type === 'bid_submitted' && m.data.bid.id === res.body.id && m.data.bid.amount === amount, res);
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
      const res = await api.call(d.base, 'PUT', `/rides/${rideId}/status`, {
        token: d.token,
        body: { status },
        label: `PUT /rides/{id}/status ${status}`,
        expect: [409],
        who: `driver ${d.id}`,
      });
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
      expectEvent(p, 'ride_status_changed', rideId, match, res);
      expectEvent(d, 'ride_status_changed', rideId, match, res);
      return true;
    };
    try {
      const pickup = { latitude: r.pickup.latitude, longitude: r.pickup.longitude };
      if (!(await to('driver_arrived', d.rng.between(5000, 9000), { from: { ...d.pos }, to: pickup }))) return;
      d.leg = { from: pickup, to: pickup, startAt: now(), endAt: now() + 1 };
      if (o.noShowWaitSeconds !== undefined && d.rng.chance(o.noShowChance ?? NO_SHOW_CHANCE)) return await noShow(d, r);
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

  /** The passenger never came: the driver waits NO_SHOW_WAIT_SECONDS (the service's clock, not the pace) and reports it; the passenger pays the fee. */
  const noShow = async (d, r) => {
    await sleep(o.noShowWaitSeconds * 1000 + 300);
    if (r.cancelIntent) return;
    const res = await api.call(d.base, 'POST', `/rides/${r.id}/no-show`, {
      token: d.token,
      label: 'POST /rides/{id}/no-show',
      expect: [409],
      who: `driver ${d.id}`,
    });
    if (res.status === 409) {
      if (!r.cancelIntent) report('unexpected-status', `POST /rides/{id}/no-show (driver ${d.id}) → 409 on ride ${r.id}`);
      return;
    }
    if (!res.ok) return;
    r.status = 'cancelled';
    r.outcome = 'cancelled';
    counters.cancelled++;
    counters.noShows = (counters.noShows || 0) + 1;
    const p = users.get(r.passengerId);
    const feeCents = res.body.cancellation_fee == null ? 0 : Math.round(res.body.cancellation_fee * 100);
    if (feeCents > 0) {
      counters.fees = (counters.fees || 0) + 1;
      d.feesCents.push(feeCents);
      if (r.paymentMethod === 'wallet') p.feesCents.push(feeCents);
    }
    const match = (m) => m.type === 'ride_cancelled' && m.data.cancelled_by === 'driver' && m.data.ride.cancel_reason === 'no_show';
    expectEvent(p, 'ride_cancelled', r.id, match, res);
    expectEvent(d, 'ride_cancelled', r.id, match, res);
  };

  return { list: drivers, setUp, startHeartbeats, stopHeartbeats, onEvent, drive };
}

module.exports = { createDrivers, MATCHING_RADIUS_KM };
