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
const { spawn } = require('node:child_process');
const { writeFileSync, mkdtempSync, readFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { freePort } = require('../sim/lib/service');
const { randomPoint, seedDrivers, seedRequestedRides, firstCategoryId, CENTER } = require('./lib/city');
const { mintAccessToken } = require('./lib/jwt');
const { cpuMs } = require('./lib/stats');
const { benchServiceEnv, untilNearbyFromMemory, BENCH_JWT_SECRET } = require('./lib/service-env');

const ROOT = join(__dirname, '..');
const ADMIN_URL = process.env.BENCH_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const RIDES = Number(process.env.BENCH_RIDES || 100_000);
const DURATION = Number(process.env.BENCH_DURATION || 3);
const WARMUP = Number(process.env.BENCH_WARMUP || 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 20);
const DB = `nearby_etag_${process.pid}`;

const cannon = (options) => new Promise((ok, fail) => autocannon(options, (err, r) => (err ? fail(err) : ok(r))));
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

async function until(check, seconds, what) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${what} not within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Requests per second, p99 and CPU µs per request of the process `pid` over the measured window. */
async function measure(url, requests, pid) {
  const options = { url, connections: CONNECTIONS, pipelining: 1, requests };
  await cannon({ ...options, duration: WARMUP });
  const before = cpuMs(pid);
  const r = await cannon({ ...options, duration: DURATION });
  const cpu = cpuMs(pid) - before;
  const codes = Object.entries(r.statusCodeStats || {})
    .map(([code, { count }]) => `${code}×${count}`)
    .join(' ');
  return { rps: Math.round(r.requests.average), p99: r.latency.p99, codes, errors: r.errors, cpuUs: (cpu * 1000) / r.requests.total };
}

async function main() {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB}`;
  const port = await freePort();
  const env = benchServiceEnv({ databaseUrl: url.toString(), port });
  const base = `http://127.0.0.1:${port}`;
  const db = new Client({ connectionString: url.toString() });
  const children = [];
  const start = (args, childEnv) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: childEnv, stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(child);
    return child;
  };
  try {
    let service = start([join(ROOT, 'dist', 'src', 'main.js')], env);
    await until(async () => (await fetch(`${base}/health/ready`)).ok, 120, 'migrated service');
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    await db.connect();
    const [driverId] = await seedDrivers(db, 1, await firstCategoryId(db));
    const t0 = Date.now();
    await seedRequestedRides(db, 1, RIDES + 1);
    process.stdout.write(`seeded ${RIDES} rides in ${((Date.now() - t0) / 1000).toFixed(1)} s; load ${load()}\n`);
    const token = mintAccessToken(BENCH_JWT_SECRET, driverId, 'driver', 24 * 3600);
    const auth = { authorization: `Bearer ${token}` };

    service = start([join(ROOT, 'dist', 'src', 'main.js')], env);
    await until(async () => (await fetch(`${base}/health/ready`)).ok, 120, 'ready');
    const centre = `/api/v1/driver/rides/nearby?latitude=${CENTER.latitude}&longitude=${CENTER.longitude}&radius_km=5`;
    const loaded = await untilNearbyFromMemory(base, 900);
    process.stdout.write(`index loaded: ${loaded} open requests; load ${load()}\n`);
    const first = await fetch(`${base}${centre}`, { headers: auth });
    const etag = first.headers.get('etag');
    const page = Buffer.from(await first.arrayBuffer());
    const dir = mkdtempSync(join(tmpdir(), 'nearby-etag-'));
    writeFileSync(join(dir, 'page.json'), page);
    writeFileSync(join(dir, 'page.json.gz'), gzipSync(page));
    const barePort = await freePort();
    const bare = start([join(__dirname, 'baseline-page-server.js')], {
      ...process.env,
      PORT: String(barePort),
      PAGE_FILE: join(dir, 'page.json'),
      PAGE_GZIP_FILE: join(dir, 'page.json.gz'),
    });
    await until(async () => (await fetch(`http://127.0.0.1:${barePort}/baseline`)).ok, 30, 'bare server');
    const gzipLength = (await fetch(`${base}${centre}`, { headers: { ...auth, 'accept-encoding': 'gzip' } })).headers.get('content-length');
    process.stdout.write(`page at the centre: ${page.length} bytes (${JSON.parse(page).length} rides), gzip ${gzipLength} bytes, ETag ${etag}\n`);

    const bareUrl = `http://127.0.0.1:${barePort}`;
    const random = [
      {
        method: 'GET',
        headers: auth,
        setupRequest: (req) => {
          const p = randomPoint();
          return { ...req, path: `/api/v1/driver/rides/nearby?latitude=${p.latitude.toFixed(6)}&longitude=${p.longitude.toFixed(6)}&radius_km=5` };
        },
      },
    ];
    const cases = [
      ['same point, plain', { path: '/page' }, [{ method: 'GET', path: centre, headers: auth }]],
      ['random points, plain', { path: '/page' }, random],
      [
        'same point, gzip',
        { path: '/page', headers: { 'accept-encoding': 'gzip' } },
        [{ method: 'GET', path: centre, headers: { ...auth, 'accept-encoding': 'gzip' } }],
      ],
      ['same point, 304', { path: '/baseline' }, [{ method: 'GET', path: centre, headers: { ...auth, 'if-none-match': etag } }]],
    ];
    for (const [name, bareRequest, requests] of cases) {
      const ceiling = await measure(bareUrl, [{ method: 'GET', ...bareRequest }], bare.pid);
      const r = await measure(base, requests, service.pid);
      process.stdout.write(
        `${name}: ${r.rps} req/s (bare ${ceiling.rps}), ratio ${(r.rps / ceiling.rps).toFixed(3)}, p99 ${r.p99} ms (bare ${ceiling.p99}), ` +
          `service CPU ${r.cpuUs.toFixed(1)} µs/request (bare ${ceiling.cpuUs.toFixed(1)}), statuses ${r.codes}, errors ${r.errors}; load ${load()}\n`,
      );
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await db.end().catch(() => undefined);
    if (process.env.BENCH_KEEP !== '1') await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    else process.stdout.write(`kept database ${DB}\n`);
    await admin.end();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exitCode = 1;
});
