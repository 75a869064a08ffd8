'use strict';
/**
 * The simulated passengers: some get a credited wallet, some save a card, each books ride after ride (estimate, maybe
 * an offer, book, collect bids, accept, or cancel, or let it expire), shares, rates and tips. Every
 * answer is checked, and so is every event the service owes: bids, acceptance, status, cancellation,
 * and ride_requested to every driver the matcher must tell.
 */
const { spawn } = require('node:child_process');
const { distanceKm, offset } = require('./geo');
const { cents } = require('./money');
const { bookForLater } = require('./ride-later');

const WALLET_CREDIT = 150;
/** Share of bookings made at the passenger's own price (offered_fare), and of completed rides tipped. */
const OFFER_CHANCE = 0.2;
const TIP_CHANCE = 0.3;
/** Share of passengers who save a card when the run has a Stripe fake (o.confirmCard; o.cardChance overrides). */
const CARD_CHANCE = 0.4;
/** Share of a card holder's bookings paid by card (o.cardRideChance overrides). */
const CARD_RIDE_CHANCE = 0.6;
/** A rider tips only while the wallet keeps this much for the next wallet fares. */
const TIP_RESERVE_CENTS = 6000;
// Each credit is a CLI process (a Nest start-up, seconds on a busy machine): a few dozen wallets are
// enough to show wallet payments in a run of hundreds of passengers.
const MAX_CREDITED_WALLETS = 40;
const EXPECTED_RADIUS_KM = 4; // well inside MATCHING_RADIUS_KM (5): must be told

const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * ctx: { o, api, report, counters, notes, users, rides, drivers (the driver list), drive,
 * expectEvent, waitFor, act, now, trust, safety, centre, scale, categoryId, inBatches, endAt() }.
 */
function createPassengers(ctx) {
  const { o, api, report, counters, notes, users, rides, expectEvent, waitFor, act, now, trust, safety, centre, scale } = ctx;

  /** Credits some wallets through the CLI while the rides run: a passenger pays cash until then. */
  const creditWallets = (passengers) => {
    const walletUsers = passengers.filter((p) => p.rng.chance(0.5)).slice(0, MAX_CREDITED_WALLETS);
    if (!walletUsers.length) return Promise.resolve();
    if (!o.creditCmd) {
      notes.push('no --credit-cmd: every ride is paid in cash');
      return Promise.resolve();
    }
    const [cmd, ...cmdArgs] = o.creditCmd.split(/\s+/).filter(Boolean);
    let failures = 0;
    return ctx.inBatches(walletUsers, 2, async (p) => {
      const ok = await new Promise((resolve) => {
        const child = spawn(cmd, [...cmdArgs, String(p.id), WALLET_CREDIT.toFixed(2), '--reason', 'sim'], {
          env: o.creditEnv || process.env,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let err = '';
        child.stderr.on('data', (c) => (err += c));
        child.on('error', (e) => resolve(e.message));
        child.on('exit', (code) => resolve(code === 0 ? true : err.trim().split('\n').slice(-1)[0] || `exit ${code}`));
      });
      if (ok === true) p.creditedCents = cents(WALLET_CREDIT);
      else if (failures++ === 0) notes.push(`wallet credit failed (${ok}); those passengers pay cash`);
    });
  };

  /**
   * With a Stripe fake beside the service (the demo's), some passengers save a card as an app does:
   * a SetupIntent from the service, confirmed with a test card through the fake (Stripe's SDK).
   */
  const saveCards = (passengers) => {
    if (!o.confirmCard) return Promise.resolve();
    const cardUsers = passengers.filter((p) => p.rng.chance(o.cardChance ?? CARD_CHANCE));
    return ctx.inBatches(cardUsers, 4, async (p) => {
      const res = await api.call(p.base, 'POST', '/payments/cards/setup', { token: p.token, label: 'POST /payments/cards/setup', who: `passenger ${p.id}` });
      if (!res.ok) return;
      await o.confirmCard(res.body.setup_intent_id);
      p.hasCard = true;
    });
  };

  const ridePayload = (p) => {
    const pickup = offset(centre, p.rng.between(0, 2.5 * scale), p.rng.between(0, 360));
    const dropoff = offset(pickup, p.rng.between(1, 4), p.rng.between(0, 360));
    return {
      pickup: { address: `Pickup ${p.index}-${p.rides || 0}`, ...pickup },
      dropoff: { address: `Drop-off ${p.index}-${p.rides || 0}`, ...dropoff },
      ride_type: 'one_way',
      vehicle_category_id: ctx.categoryId,
      passenger_count: 1,
      children: 0,
    };
  };

  const expectRequested = (ride, booked) => {
    const { sentAt } = booked;
    for (const d of ctx.drivers) {
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
        expectEvent(d, 'ride_requested', ride.id, (m) => m.type === 'ride_requested', booked, movedAway);
      }
    }
  };

  const cancel = async (p, r, reason) => {
    r.cancelIntent = true;
    const res = await api.call(p.base, 'POST', `/rides/${r.id}/cancel`, {
      token: p.token,
      body: { reason },
      label: 'POST /rides/{id}/cancel',
      expect: [409],
      who: `passenger ${p.id}`,
    });
    if (res.status === 409) {
      if (!['started', 'completed'].includes(r.driverSent) && r.status !== 'expired')
        report('unexpected-status', `POST /rides/{id}/cancel (passenger ${p.id}) → 409 on ride ${r.id} (${r.status})`);
      r.cancelIntent = false;
      return false;
    }
    if (!res.ok) return false;
    r.status = 'cancelled';
    r.outcome = 'cancelled';
    counters.cancelled++;
    // A late cancel (after CANCELLATION_FREE_SECONDS) pays the fee to the driver: from the wallet or the card's hold.
    const feeCents = res.body.cancellation_fee == null ? 0 : cents(res.body.cancellation_fee);
    if (feeCents > 0) {
      counters.fees = (counters.fees || 0) + 1;
      if (r.paymentMethod === 'wallet') p.feesCents.push(feeCents);
      const driver = users.get(r.driverId);
      if (driver) driver.feesCents.push(feeCents);
    }
    const match = (m) => m.type === 'ride_cancelled' && m.data.cancelled_by === 'passenger';
    expectEvent(p, 'ride_cancelled', r.id, match, res);
    if (r.driverId) expectEvent(users.get(r.driverId), 'ride_cancelled', r.id, match, res);
    return true;
  };

  /** Books a ride and sees it requested: the ride's record, or undefined when the booking failed. */
  const book = async (p) => {
    const payload = ridePayload(p);
    p.rides = (p.rides || 0) + 1;
    const estimate = await api.call(p.base, 'POST', '/rides/estimate', {
      token: p.token,
      body: payload,
      label: 'POST /rides/estimate',
      who: `passenger ${p.id}`,
    });
    const paymentMethod =
      p.hasCard && p.rng.chance(o.cardRideChance ?? CARD_RIDE_CHANCE) ? 'card' : p.creditedCents > 0 && p.rng.chance(0.6) ? 'wallet' : 'cash';
    // Some riders name their own price: near the estimate, well above MIN_OFFER_PERCENT (70 %) of it.
    if (estimate.ok && p.rng.chance(OFFER_CHANCE)) payload.offered_fare = Math.round(estimate.body.breakdown.total * p.rng.between(0.85, 1.05) * 100) / 100;
    p.booking = { earlyBids: [] };
    const booked = await api.call(p.base, 'POST', '/rides/book', {
      token: p.token,
      body: { ...payload, payment_method: paymentMethod },
      label: 'POST /rides/book',
      who: `passenger ${p.id}`,
    });
    const { earlyBids } = p.booking;
    p.booking = null;
    const ride = booked.ok ? booked.body : {};
    for (const rideId of earlyBids) {
      if (rideId !== ride.id) report('wrong-receiver', `passenger ${p.id} got bid_submitted for another passenger's ride ${rideId}`);
    }
    if (!booked.ok) return undefined;
    const surge = ride.estimate?.breakdown?.surge_multiplier ?? 1;
    const r = {
      id: ride.id,
      code: ride.ride_code,
      passengerId: p.id,
      pickup: ride.pickup,
      dropoff: ride.dropoff,
      status: 'requested',
      outcome: 'in_progress',
      paymentMethod,
      surge,
    };
    rides.set(r.id, r);
    counters.requested++;
    expectRequested(r, booked);
    return r;
  };

  /**
   * Collects bids: the first one, then a little longer for competitors, and accepts the cheapest
   * that still can be. When every bidder got busy meanwhile (409 on accept), waits for a second round.
   */
  const acceptABid = async (p, r) => {
    let offered = 0;
    for (let round = 0; round < 2; round++) {
      const bids = new Map();
      // Bids that arrived before the booking's response are in the inbox already.
      if (round === 0)
        for (const { message: m } of p.inbox.get(r.id)?.messages ?? []) if (m.type === 'bid_submitted') bids.set(m.data.bid.driver.id, m.data.bid);
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
        const res = await api.call(p.base, 'POST', `/rides/${r.id}/bids/${bid.id}/accept`, {
          token: p.token,
          label: 'POST /rides/{id}/bids/{bid}/accept',
          expect: [409],
          who: `passenger ${p.id}`,
        });
        if (res.ok) return { accepted: { bid, res }, offered };
      }
      if (!ordered.length) break;
    }
    return { offered };
  };

  const oneRide = async (p, plan) => {
    const r = await book(p);
    if (!r) return act(2000);
    if (plan === 'expire') {
      const expired = await waitFor(
        p,
        (m) => m.ride_id === r.id && m.type === 'ride_status_changed' && m.data.ride.status === 'expired',
        o.ttlMinutes * 60_000 + 30_000,
      );
      if (expired) {
        r.status = 'expired';
        r.outcome = 'expired';
        counters.expired++;
      } else if (now() < ctx.endAt() + (o.drainMs ?? 0)) {
        report('missing-event', `ride ${r.id} was not expired within RIDE_REQUEST_TTL_MINUTES (${o.ttlMinutes}) + 30 s`);
      }
      return;
    }
    if (plan === 'cancel-requested') {
      await act(p.rng.between(1500, 4000));
      await cancel(p, r, 'changed my mind');
      return;
    }
    const { accepted, offered } = await acceptABid(p, r);
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
    expectEvent(p, 'ride_accepted', r.id, match, accepted.res);
    if (winner) {
      expectEvent(winner, 'ride_accepted', r.id, match, accepted.res);
      // The driver acts on ride_accepted; should it be lost (a violation already), the ride still moves.
      setTimeout(() => ctx.drive(winner, r.id), o.eventTimeoutMs + 500);
    }
    if (plan === 'cancel-accepted') {
      await act(p.rng.between(1000, 3000));
      if (await cancel(p, r, 'found another ride')) return;
    }
    const ended = waitFor(
      p,
      (m) => m.ride_id === r.id && ((m.type === 'ride_status_changed' && m.data.ride.status === 'completed') || m.type === 'ride_cancelled'),
      90_000,
    );
    await trust.shareTrip(p, r.id);
    if (safety) await safety.maybeRaise(p, r);
    const done = await ended;
    if (!done) report('stuck-ride', `ride ${r.id} neither completed nor cancelled within 90 s of acceptance`);
    else if (done.type === 'ride_status_changed') {
      await trust.rate(p, r);
      await maybeTip(p, r);
    } else if (r.status !== 'completed') await sleep(200);
  };

  /** Some riders with a credited wallet tip after the ride (cash rides too), keeping enough for their next fares. */
  const maybeTip = async (p, r) => {
    // The wallet check counts tips against the wallet; a card ride's tip would go to the card.
    if (r.paymentMethod === 'card') return;
    const spent = [...p.walletFaresCents, ...p.tipsCents].reduce((sum, c) => sum + c, 0) + (r.paymentMethod === 'wallet' ? r.fareCents : 0);
    const tipCents = Math.round(p.rng.between(1, 3) * 100);
    if (p.creditedCents - spent < tipCents + TIP_RESERVE_CENTS || !p.rng.chance(TIP_CHANCE)) return;
    await act(p.rng.between(500, 1500));
    const res = await api.call(p.base, 'POST', `/rides/${r.id}/tip`, {
      token: p.token,
      body: { amount: tipCents / 100 },
      label: 'POST /rides/{id}/tip',
      who: `passenger ${p.id}`,
    });
    if (!res.ok) return;
    p.tipsCents.push(tipCents);
    r.tipCents = tipCents;
    counters.tips++;
    const winner = users.get(r.driverId);
    if (winner) expectEvent(winner, 'ride_tipped', r.id, (m) => m.type === 'ride_tipped' && cents(m.data.tip.amount) === tipCents, res);
  };

  /** One passenger's rides until the end: mostly normal ones, some cancelled, the first maybe left to expire. */
  const ride = async (p, i, rampMs) => {
    await act(p.rng.between(0, rampMs));
    let first = true;
    while (now() < ctx.endAt()) {
      const canExpire = now() + o.ttlMinutes * 60_000 + 20_000 < ctx.endAt() + (o.drainMs ?? 0);
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
  };

  return { creditWallets, saveCards, ride };
}

module.exports = { createPassengers };
