'use strict';
/**
 * The city the nearby benches poll: a fresh database, migrated by starting the built service of
 * `root` once, then one approved driver and `rides` requested rides around the centre written
 * through SQL (bench/lib/city.js), far faster than through the API.
 */
const { Client } = require('pg');
const { freePort } = require('../../sim/lib/service');
const { freshDatabase, startBuilt } = require('./built-app');
const { randomPoint, seedDrivers, seedRequestedRides, firstCategoryId } = require('./city');
const { mintAccessToken } = require('./jwt');
const { benchServiceEnv, BENCH_JWT_SECRET } = require('./service-env');

/**
 * { database (drop() at the end), env and base of the service to start on it, token (the driver's,
 * a day long), seededSeconds }. `overrides` are added to the service's environment.
 */
async function openRequestsCity(prefix, { root, rides, overrides = {} }) {
  const database = await freshDatabase(prefix);
  const port = await freePort();
  const env = benchServiceEnv({ databaseUrl: database.url, port, ...overrides });
  const db = new Client({ connectionString: database.url });
  try {
    const migrating = startBuilt(root, env);
    try {
      await migrating.ready();
    } finally {
      await migrating.stop();
    }
    await db.connect();
    const [driverId] = await seedDrivers(db, 1, await firstCategoryId(db));
    const t0 = Date.now();
    await seedRequestedRides(db, 1, rides + 1);
    const token = mintAccessToken(BENCH_JWT_SECRET, driverId, 'driver', 24 * 3600);
    return { database, env, base: `http://127.0.0.1:${port}`, token, seededSeconds: (Date.now() - t0) / 1000 };
  } catch (err) {
    await database.drop();
    throw err;
  } finally {
    await db.end().catch(() => undefined);
  }
}

/** autocannon's requests: GET nearby (5 km) at a random point of the city each time. */
function nearbyAtRandomPoints(token) {
  return [
    {
      method: 'GET',
      headers: { authorization: `Bearer ${token}` },
      setupRequest: (req) => {
        const p = randomPoint();
        return { ...req, path: `/api/v1/driver/rides/nearby?latitude=${p.latitude.toFixed(6)}&longitude=${p.longitude.toFixed(6)}&radius_km=5` };
      },
    },
  ];
}

/** The machine's load averages (1, 5, 15 min), printed beside figures a busy machine disturbs. */
const loadavg = () => require('node:fs').readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

module.exports = { openRequestsCity, nearbyAtRandomPoints, loadavg };
