'use strict';

const HOUR_MS = 3_600_000;
/** CONTRACT §11: a passenger holds at most this many rides booked for later. */
const MAX_SCHEDULED = 3;

/**
 * A passenger books a ride for later (CONTRACT §11 "Ride later"), checks it in the scheduled list and
 * sometimes cancels it. Pickups are a day or two ahead, so no run (the soak's 10 minutes included)
 * reaches a dispatch: drivers never see these rides, and the simulator's event checks stay as they are.
 */
async function bookForLater({ api, p, payload, report, counters }) {
  p.scheduled = p.scheduled || [];
  if (p.scheduled.length >= MAX_SCHEDULED) return;
  const pickupAt = new Date(Date.now() + p.rng.between(24, 48) * HOUR_MS).toISOString();
  const who = `passenger ${p.id}`;
  const booked = await api.call(p.base, 'POST', '/rides/book', {
    token: p.token,
    body: { ...payload, payment_method: 'cash', pickup_at: pickupAt },
    label: 'POST /rides/book (later)',
    who,
  });
  if (!booked.ok) return;
  const ride = booked.body;
  if (ride.status !== 'scheduled' || ride.pickup_at !== pickupAt) {
    report(
      'unexpected-status',
      `POST /rides/book with pickup_at (${who}) → status ${ride.status}, pickup_at ${ride.pickup_at} (expected scheduled, ${pickupAt})`,
    );
  }
  p.scheduled.push(ride.id);
  counters.scheduled = (counters.scheduled || 0) + 1;
  const list = await api.call(p.base, 'GET', '/passenger/rides/scheduled?limit=100', { token: p.token, label: 'GET /passenger/rides/scheduled', who });
  if (list.ok) {
    const ids = list.body.items.map((r) => r.id).sort();
    if (ids.join() !== [...p.scheduled].sort().join())
      report('unexpected-status', `GET /passenger/rides/scheduled (${who}) listed ${ids.length} rides, expected ${p.scheduled.length}`);
  }
  if (p.rng.chance(0.5)) {
    const res = await api.call(p.base, 'POST', `/rides/${ride.id}/cancel`, {
      token: p.token,
      body: { reason: 'plans changed' },
      label: 'POST /rides/{id}/cancel (later)',
      who,
    });
    if (res.ok) {
      p.scheduled = p.scheduled.filter((id) => id !== ride.id);
      counters.scheduledCancelled = (counters.scheduledCancelled || 0) + 1;
    }
  }
}

module.exports = { bookForLater };
