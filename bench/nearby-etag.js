'use strict';
/**
 * node bench/nearby-etag.js: GET /driver/rides/nearby at BENCH_RIDES (default 100,000) open requests
 * against bare Fastify sending the same page bytes (bench/baseline-page-server.js), in the same run,
 * plain and gzip; and the CPU of a poll answered 304 (If-None-Match naming the current page).
 *
 * One fresh database (BENCH_ADMIN_URL) with the rides and one approved driver (SQL); the service
 * (this checkout's dist/: `npm run build` first) is started once; the page at the city's centre is
 * fetched and handed to the bare server. Each case runs BENCH_WARMUP s (default 1) then BENCH_DURATION
 * s (default 3) with BENCH_CONNECTIONS (default 20) connections, the bare case right before its
 * service case. Cases: the same point polled again and again (the page is built once, then reused
 * until a ride near it changes), random points in the city (a page built per request), gzip at the
 * same point, and 304 at the same point. CPU per request is the process's user + system time over the
 * window (/proc) divided by the requests; the statuses are printed (a 304 case must be all 304). The database is dropped at the end unless BENCH_KEEP=1.
 */
const { join } = require('node:path');
const { startBuilt } = require('./lib/built-app');
const { nearbyPageCases } = require('./lib/nearby-page-cases');
const { openRequestsCity, loadavg } = require('./lib/open-requests-city');
const { loadFromEnv } = require('./lib/stats');
const { untilNearbyFromMemory } = require('./lib/service-env');

const ROOT = join(__dirname, '..');
const RIDES = Number(process.env.BENCH_RIDES || 100_000);
const LOAD = loadFromEnv({ duration: 3, warmup: 1, connections: 20 });

async function main() {
  const city = await openRequestsCity('nearby_etag', { root: ROOT, rides: RIDES });
  process.stdout.write(`seeded ${RIDES} rides in ${city.seededSeconds.toFixed(1)} s; load ${loadavg()}\n`);
  // BENCH_SERVICE_ARGS: node flags for the service, as in npm run bench (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof).
  const service = startBuilt(ROOT, city.env, { nodeArgs: (process.env.BENCH_SERVICE_ARGS || '').split(' ').filter(Boolean) });
  try {
    await service.ready();
    const loaded = await untilNearbyFromMemory(city.base, 900);
    process.stdout.write(`index loaded: ${loaded} open requests; load ${loadavg()}\n`);
    const log = (line) => process.stdout.write(`${line}; load ${loadavg()}\n`);
    await nearbyPageCases({ base: city.base, pid: service.child.pid, token: city.token, load: LOAD, log });
  } finally {
    await service.stop();
    await city.database.drop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exitCode = 1;
});
