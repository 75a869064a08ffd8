'use strict';
/**
 * Issue 20 in the simulated city (CONTRACT §11): passengers share their trip with someone at home
 * (who opens the link once, without logging in), and after a completed ride both sides rate each
 * other. Every answer is checked against the contract; the rated party must get `ride_rated`.
 */

const SHARE_CHANCE = 0.4;
const RATE_CHANCE = 0.85;
const COMMENTS = ['Smooth ride', 'Friendly and on time', 'Thanks!', null];
/** What a shared view may show: anything else (a phone, an e-mail, an id, the passenger) is a violation. */
const SHARED_KEYS = ['driver', 'driver_location', 'dropoff', 'pickup', 'status', 'updated_at'].join();
const SHARED_DRIVER_KEYS = ['first_name', 'rating', 'vehicle_color', 'vehicle_make', 'vehicle_model', 'vehicle_plate'].join();

function createTrust({ api, report, expectEvent, users }) {
  /** The passenger shares a live ride; the link is opened once without a token and must reveal nobody. */
  async function shareTrip(p, rideId) {
    if (p.rng.next() >= SHARE_CHANCE) return;
    const who = `passenger ${p.id}`;
    // 409: the ride ended (a cancel or completion won the race).
    const link = await api.call(p.base, 'POST', `/rides/${rideId}/share`, { token: p.token, label: 'POST /rides/{id}/share', expect: [409], who });
    if (!link.ok) return;
    if (typeof link.body.token !== 'string' || !link.body.url.endsWith(`/api/v1/shared-rides/${link.body.token}`) || link.body.expires_at !== null) {
      report('sharing', `POST /rides/${rideId}/share answered ${JSON.stringify(link.body)}`);
    }
    const seen = await api.call(p.base, 'GET', `/shared-rides/${link.body.token}`, { label: 'GET /shared-rides/{token}', who: 'a shared link' });
    if (!seen.ok) return;
    const keys = Object.keys(seen.body).sort().join();
    const driverKeys = seen.body.driver ? Object.keys(seen.body.driver).sort().join() : SHARED_DRIVER_KEYS;
    if (keys !== SHARED_KEYS || driverKeys !== SHARED_DRIVER_KEYS || JSON.stringify(seen.body).includes('@')) {
      report('sharing', `GET /shared-rides/{token} of ride ${rideId} shows ${JSON.stringify(seen.body)}`);
    }
  }

  /** One side rates the other after completion: 201 with its own side and stars, `ride_rated` to the other. */
  async function rate(user, ride) {
    if (user.rng.next() >= RATE_CHANCE) return;
    const stars = user.rng.next() < 0.7 ? 5 : 3 + Math.floor(user.rng.next() * 2);
    const comment = COMMENTS[Math.floor(user.rng.next() * COMMENTS.length)];
    const body = comment ? { stars, comment } : { stars };
    const res = await api.call(user.base, 'POST', `/rides/${ride.id}/rating`, {
      token: user.token,
      body,
      label: 'POST /rides/{id}/rating',
      who: `${user.role} ${user.id}`,
    });
    if (!res.ok) return;
    if (res.body.rated_by !== user.role || res.body.stars !== stars || res.body.ride_id !== ride.id) {
      report('rating', `POST /rides/${ride.id}/rating (${user.role} ${user.id}) answered ${JSON.stringify(res.body)}`);
    }
    const rated = users.get(user.role === 'passenger' ? ride.driverId : ride.passengerId);
    if (rated) expectEvent(rated, 'ride_rated', ride.id, (m) => m.type === 'ride_rated' && m.data.rating.rated_by === user.role, res);
  }

  return { shareTrip, rate };
}

module.exports = { createTrust };
