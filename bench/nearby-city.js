'use strict';
/**
 * node bench/nearby-city.js: GET /driver/rides/nearby's query at city scale.
 *
 * Creates a fresh database (BENCH_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres),
 * migrates it with the built migrations (run `npm run build` first), seeds BENCH_RIDES (default
 * 100,000) requested rides over a 67 × 67 km square around Berlin (52.52, 13.40) in five categories,
 * prints EXPLAIN (ANALYZE, BUFFERS) at a random point, then times BENCH_QUERIES (default 2,000)
 * queries from random points (radius 5 km, a random category; one in five without one), one at a
 * time, and prints p50/p99. With BENCH_OLD=1 it also times the query this replaced (box on the
 * projected pickup_geo point, join and haversine for every row of the box, sort) on the same rows.
 * The database is dropped at the end unless BENCH_KEEP=1.
 */
const { Client } = require('pg');
const { DataSource } = require('typeorm');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const { MIGRATIONS } = require(join(ROOT, 'dist/src/database/migrations'));
const { seedVehicleCategories } = require(join(ROOT, 'dist/src/database/seeds/vehicle-categories.seed'));
const { nearbySql } = require(join(ROOT, 'dist/src/modules/rides/read-models/open-requests/open-requests.repository'));
const { sqlHaversineKm } = require(join(ROOT, 'dist/src/common/geo'));
const { freshDatabase } = require('./lib/built-app');
const { HALF_LAT, randomPoint, seedRequestedRides } = require('./lib/city');
const { RIDE_VIEW_COLUMNS, RIDE_VIEW_FROM } = require(join(ROOT, 'dist/src/modules/rides/read-models/ride-view'));

const RIDES = Number(process.env.BENCH_RIDES || 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES || 2_000);
const KM_PER_DEG = 111.195;
const LIMIT = 50;
const RADIUS_KM = 5;

function randomQuery(categories) {
  const category = Math.random() < 0.2 ? null : categories[Math.floor(Math.random() * categories.length)];
  return { ...randomPoint(), radiusKm: RADIUS_KM, vehicleCategoryId: category, limit: LIMIT };
}

/** The query before the pickup_vec index (commit a4fe1da), for the comparison. */
function oldSql(q) {
  const d = (q.radiusKm / KM_PER_DEG) * 1.02;
  const rad = Math.PI / 180;
  const lo = Math.max(-90, q.latitude - d);
  const hi = Math.min(90, q.latitude + d);
  const cosines = [Math.cos(lo * rad), Math.cos(hi * rad)];
  if (lo <= 0 && hi >= 0) cosines.push(1);
  const xs = cosines.map((c) => q.longitude * c);
  const params = [q.latitude, q.longitude, q.radiusKm, Math.min(...xs) - d, lo, Math.max(...xs) + d, hi];
  let category = '';
  if (q.vehicleCategoryId !== null) {
    params.push(q.vehicleCategoryId);
    category = ` AND r.vehicle_category_id = $8`;
  }
  const distance = sqlHaversineKm('$1::float8', '$2::float8', 'r.pickup_latitude', 'r.pickup_longitude');
  const sql = `SELECT * FROM (
     SELECT ${RIDE_VIEW_COLUMNS}, ${distance} AS distance_km ${RIDE_VIEW_FROM}
      WHERE r.status = 'requested'
        AND r.pickup_geo <@ box(point($4::float8, $5::float8), point($6::float8, $7::float8))
        AND r.expires_at > now()${category}) AS near
    WHERE distance_km <= $3::float8
    ORDER BY distance_km, id
    LIMIT ${q.limit}`;
  return { sql, params };
}

async function migrate(url) {
  const ds = new DataSource({ type: 'postgres', url, migrations: MIGRATIONS, entities: [], logging: false });
  await ds.initialize();
  await ds.runMigrations();
  await seedVehicleCategories(ds);
  await ds.destroy();
}

async function seed(db) {
  await seedRequestedRides(db, 1, RIDES + 1);
  await db.query('VACUUM ANALYZE users');
  await db.query('VACUUM ANALYZE rides');
}

async function explain(db, { sql, params }, label) {
  const rows = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
  process.stdout.write(`\n--- EXPLAIN (ANALYZE, BUFFERS): ${label}\n${rows.rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
}

async function time(db, build, categories, label) {
  for (let i = 0; i < 100; i += 1) {
    const { sql, params } = build(randomQuery(categories));
    await db.query(sql, params);
  }
  const ms = [];
  let returned = 0;
  for (let i = 0; i < QUERIES; i += 1) {
    const { sql, params } = build(randomQuery(categories));
    const start = process.hrtime.bigint();
    const result = await db.query(sql, params);
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
    // The JSON variant answers one row holding the page.
    returned += result.rows[0] && typeof result.rows[0].body === 'string' ? JSON.parse(result.rows[0].body).length : result.rowCount;
  }
  ms.sort((a, b) => a - b);
  const at = (p) => ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))].toFixed(2);
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  process.stdout.write(
    `${label}: ${QUERIES} queries, p50 ${at(50)} ms, p99 ${at(99)} ms, mean ${mean.toFixed(2)} ms, ${(returned / QUERIES).toFixed(1)} rows/query\n`,
  );
}

async function main() {
  const database = await freshDatabase('nearby_city_bench');
  const db = new Client({ connectionString: database.url });
  try {
    await migrate(database.url);
    await db.connect();
    const started = Date.now();
    await seed(db);
    const categories = (await db.query('SELECT id FROM vehicle_categories ORDER BY id')).rows.map((r) => r.id);
    process.stdout.write(`seeded ${RIDES} requested rides over ${(2 * HALF_LAT * KM_PER_DEG).toFixed(0)} km square in ${Date.now() - started} ms\n`);

    const q = randomQuery(categories);
    q.vehicleCategoryId = categories[0];
    await explain(db, nearbySql(q), `new query, category ${q.vehicleCategoryId}`);
    await explain(db, nearbySql({ ...q, vehicleCategoryId: null }), 'new query, every category');
    await time(db, nearbySql, categories, 'new query (pickup_vec KNN)');
    // NearbyRidesCache loads twice the page around its grid point on a miss.
    await time(db, (x) => nearbySql({ ...x, radiusKm: x.radiusKm + 0.01, limit: 2 * LIMIT }), categories, 'new query, cache miss (100 rows)');

    if (process.env.BENCH_OLD === '1') {
      await db.query(
        `ALTER TABLE rides ADD COLUMN pickup_geo point
           GENERATED ALWAYS AS (point(pickup_longitude * cosd(pickup_latitude), pickup_latitude)) STORED`,
      );
      await db.query(`CREATE INDEX rides_requested_geo_idx ON rides USING gist (pickup_geo) WHERE status = 'requested'`);
      await db.query('VACUUM ANALYZE rides');
      await explain(db, oldSql(q), `old query, category ${q.vehicleCategoryId}`);
      await time(db, oldSql, categories, 'old query (box + sort)');
    }
  } finally {
    await db.end().catch(() => undefined);
    await database.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exitCode = 1;
});
