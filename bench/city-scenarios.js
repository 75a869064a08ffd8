'use strict';
/**
 * The city-scale scenarios of npm run bench: nearby over 100k / 1M seeded requested rides,
 * heartbeats from 10k distinct drivers, accept races (ride_requested fanned out: city-fanout.js),
 * all against data written through SQL and tokens minted with the bench's JWT_SECRET.
 * Each function returns a result row; a broken invariant (two winners, missing deliveries, a 5xx)
 * is reported in row.failure, which fails the run.
 */
const { CENTER, randomPoint, seedDrivers, seedPassengers, seedRequestedRides } = require('./lib/city');
const { mintAccessToken } = require('./lib/jwt');
const { untilNearbyFromMemory } = require('./lib/service-env');
const { mapLimit, rssMb } = require('./lib/stats');
const { JSON_HEADERS, request, must, rideBody } = require('./lib/city-http');
const { nearbyPageCases } = require('./lib/nearby-page-cases');

/** Seeds rides [from, to) and measures nearby from a random point of the area per request. */
async function nearbyCity(ctx, from, to) {
  const started = Date.now();
  await seedRequestedRides(ctx.db, from, to);
  const seedMs = Date.now() - started;
  const token = ctx.driverTokens[0];
  const readyS = await ctx.restartService();
  const loadedAt = Date.now();
  await untilNearbyFromMemory(ctx.base);
  const loadS = readyS + (Date.now() - loadedAt) / 1000;
  const rss = rssMb(ctx.servicePid());
  const scenario = {
    name: `GET /driver/rides/nearby, ${to.toLocaleString('en-US')} rides`,
    requests: [
      {
        method: 'GET',
        headers: { authorization: `Bearer ${token}` },
        setupRequest: (req) => {
          const p = randomPoint();
          return { ...req, path: `/api/v1/driver/rides/nearby?latitude=${p.latitude.toFixed(6)}&longitude=${p.longitude.toFixed(6)}&radius_km=5` };
        },
      },
    ],
  };
  const row = await ctx.measurePaired(scenario);
  row.note =
    `${row.note ? `${row.note}; ` : ''}seeded ${(to - from).toLocaleString('en-US')} rides in ${(seedMs / 1000).toFixed(1)} s; ` +
    `restarted: ready in ${readyS.toFixed(1)} s, nearby from memory ${loadS.toFixed(1)} s after the spawn, ` +
    `RSS ${rss} MB then (${rss - ctx.rssIdleMb} MB over an idle service: ${Math.round(((rss - ctx.rssIdleMb) * 1024 * 1024) / to)} B per open request)`;
  row.ready_s = Math.round(readyS * 10) / 10;
  row.startup_load_s = Math.round(loadS * 10) / 10;
  row.rss_bytes_per_open_request = Math.round(((rss - ctx.rssIdleMb) * 1024 * 1024) / to);
  return row;
}

/**
 * Nearby over the rides nearbyCity seeded, against bare Fastify sending the same page's bytes (issue 27):
 * random points, the same point, gzip and 304 (bench/lib/nearby-page-cases.js). One row, its cases inside.
 */
async function nearbyPages(ctx, rides, load) {
  const cases = await nearbyPageCases({
    base: ctx.base,
    pid: ctx.servicePid(),
    token: ctx.driverTokens[0],
    load,
    log: (line) => process.stdout.write(`    ${line}\n`),
  });
  const bad = cases.reduce((n, c) => n + c.service.errors + (c.name.endsWith('304') ? c.service.total - (c.service.not_modified ?? 0) : c.service.non2xx), 0);
  return {
    name: `GET /driver/rides/nearby against the same page's bytes, ${rides.toLocaleString('en-US')} rides`,
    city_rides: rides,
    page: cases[0].sizes,
    cases: cases.map((c) => ({ name: c.name, ratio: c.ratio, service: c.service, bare: c.bare })),
    ...(bad > 0 ? { failure: `${bad} requests failed or were not answered as expected` } : {}),
  };
}

/**
 * The issue's "20 open requests behind 200k freshly cancelled ones": every earlier open request is
 * cancelled and vacuumed first; CANCELLED rides are seeded requested and the service restarted on
 * them, so its index holds them; then they are cancelled behind its back through SQL, with autovacuum
 * off for the rides table (their dead index entries stay, as before a vacuum), and 20 requested rides
 * of the driver's category are written within 2 km of the centre. The index learns both at its next
 * reconciliation (OPEN_REQUESTS_RECONCILE_SECONDS): the row reports how long after the writes nearby
 * showed exactly the 20. Measured from random points within 1 km of the centre, 5 km radius: every
 * page holds the 20.
 */
async function nearbyBehindCancelled(ctx, from, { cancelled = 200_000, open = 20 } = {}) {
  const token = ctx.driverTokens[0];
  await ctx.db.query(`UPDATE rides SET status = 'cancelled', cancelled_by = 'passenger', cancelled_at = now(), updated_at = now() WHERE status = 'requested'`);
  await ctx.db.query('VACUUM ANALYZE rides');
  const started = Date.now();
  await seedRequestedRides(ctx.db, from, from + cancelled);
  const seedMs = Date.now() - started;
  await ctx.restartService();
  await untilNearbyFromMemory(ctx.base);
  await ctx.db.query('ALTER TABLE rides SET (autovacuum_enabled = false)');
  try {
    await ctx.db.query(
      `UPDATE rides SET status = 'cancelled', cancelled_by = 'passenger', cancelled_at = now(), updated_at = now() WHERE status = 'requested'`,
    );
    await seedRequestedRides(ctx.db, from + cancelled, from + cancelled + open, { halfKm: 2, categoryId: ctx.categoryId });
    const writtenAt = Date.now();
    const centre = `/api/v1/driver/rides/nearby?latitude=${CENTER.latitude}&longitude=${CENTER.longitude}&radius_km=5`;
    for (;;) {
      const r = await request(ctx.base, 'GET', centre, token);
      if (r.status === 200 && Array.isArray(r.json) && r.json.length === open) break;
      if (Date.now() - writtenAt > 180_000)
        throw new Error(`nearby at the centre still ${r.status} with ${Array.isArray(r.json) ? r.json.length : '?'} rides 180 s after the cancellations`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const reconciledS = (Date.now() - writtenAt) / 1000;
    const near = () => ({ latitude: CENTER.latitude + (Math.random() * 2 - 1) * 0.009, longitude: CENTER.longitude + (Math.random() * 2 - 1) * 0.0147 });
    const scenario = {
      name: `GET /driver/rides/nearby, ${open} open behind ${cancelled.toLocaleString('en-US')} freshly cancelled`,
      requests: [
        {
          method: 'GET',
          headers: { authorization: `Bearer ${token}` },
          setupRequest: (req) => {
            const p = near();
            return { ...req, path: `/api/v1/driver/rides/nearby?latitude=${p.latitude.toFixed(6)}&longitude=${p.longitude.toFixed(6)}&radius_km=5` };
          },
        },
      ],
    };
    const row = await ctx.measurePaired(scenario);
    row.note =
      `${row.note ? `${row.note}; ` : ''}seeded ${cancelled.toLocaleString('en-US')} rides in ${(seedMs / 1000).toFixed(1)} s, loaded by the index, ` +
      `then cancelled through SQL (autovacuum off) with ${open} new open ones: nearby showed exactly those ${reconciledS.toFixed(1)} s later (reconciliation)`;
    row.reconciled_s = reconciledS;
    return row;
  } finally {
    await ctx.db.query('ALTER TABLE rides RESET (autovacuum_enabled)');
  }
}

/**
 * Until nearby is answered from the open-requests index rather than by the database's fallback
 * during the start-up load. The two pages hold the same JSON; PostgreSQL's json writer puts spaces
 * around the colons (`{"id" : …`), the index's JSON.stringify does not: that tells them apart.
 */
/** PUT /driver/location from every seeded driver in turn (a token and a position per request). */
async function heartbeats(ctx) {
  const tokens = ctx.driverTokens;
  let next = 0;
  const scenario = {
    name: `PUT /driver/location, ${tokens.length.toLocaleString('en-US')} drivers`,
    requests: [
      {
        method: 'PUT',
        setupRequest: (req) => {
          const token = tokens[next++ % tokens.length];
          const p = randomPoint();
          return {
            ...req,
            path: '/api/v1/driver/location',
            headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
            body: JSON.stringify({ latitude: p.latitude, longitude: p.longitude, heading: 90, speed: 8.5 }),
          };
        },
      },
    ],
  };
  return ctx.measurePaired(scenario);
}

async function acceptRaces(ctx, { rides, bidders = 10 }) {
  const passengers = await seedPassengers(ctx.db, rides);
  const pickup = { latitude: CENTER.latitude + 0.25, longitude: CENTER.longitude + 0.25 }; // far from the fan-out drivers
  const counts = { rides, ok: 0, conflict: 0, other_4xx: 0, server_errors: 0, rides_with_one_winner: 0, rides_with_two_or_more: 0, rides_without_winner: 0 };
  const statuses = {};
  const t0 = Date.now();
  await mapLimit(passengers, 8, async (passengerId, i) => {
    const passengerToken = mintAccessToken(ctx.secret, passengerId, 'passenger');
    const ride = await must(ctx.base, 'POST', '/api/v1/rides/book', passengerToken, rideBody(pickup, ctx.categoryId));
    const bidderIds = ctx.driverIds.slice(i * bidders, (i + 1) * bidders);
    const bids = await Promise.all(
      bidderIds.map((id) =>
        must(ctx.base, 'POST', `/api/v1/driver/rides/${ride.id}/bid`, mintAccessToken(ctx.secret, id, 'driver'), { amount: 12.5 + (id % 7), eta_minutes: 4 }),
      ),
    );
    const answers = await Promise.all(bids.map((bid) => request(ctx.base, 'POST', `/api/v1/rides/${ride.id}/bids/${bid.id}/accept`, passengerToken, {})));
    let winners = 0;
    for (const a of answers) {
      statuses[a.status] = (statuses[a.status] || 0) + 1;
      if (a.status === 200) {
        counts.ok += 1;
        winners += 1;
      } else if (a.status === 409) counts.conflict += 1;
      else if (a.status >= 500) counts.server_errors += 1;
      else counts.other_4xx += 1;
    }
    if (winners === 1) counts.rides_with_one_winner += 1;
    else if (winners > 1) counts.rides_with_two_or_more += 1;
    else counts.rides_without_winner += 1;
  });
  const row = { name: `accept races: ${rides} rides × ${bidders} accepts`, ...counts, statuses, duration_s: (Date.now() - t0) / 1000 };
  row.note = `${counts.ok} × 200, ${counts.conflict} × 409, ${counts.server_errors} × 5xx; one winner on ${counts.rides_with_one_winner}/${rides} rides`;
  if (counts.rides_with_two_or_more || counts.rides_without_winner || counts.server_errors || counts.other_4xx) {
    row.failure = `races: ${counts.rides_with_two_or_more} with two or more winners, ${counts.rides_without_winner} without, ${counts.server_errors} 5xx, ${counts.other_4xx} other 4xx`;
  }
  return row;
}

module.exports = { nearbyCity, nearbyPages, nearbyBehindCancelled, heartbeats, acceptRaces, seedDrivers, mintAccessToken, rssMb };
