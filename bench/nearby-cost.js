'use strict';
/**
 * node bench/nearby-cost.js [ROOT ...]: the service's CPU per GET /driver/rides/nearby served from the
 * open-requests index, A/B between builds (each ROOT a checkout with a built dist/; default this one).
 *
 * One fresh database (BENCH_ADMIN_URL) with BENCH_RIDES (default 100,000) requested rides and one
 * approved driver, written through SQL; then BENCH_ROUNDS (default 3) rounds, each starting every
 * ROOT's service in turn on it, waiting until nearby is answered from memory, warming up and
 * measuring BENCH_DURATION s (default 5) with BENCH_CONNECTIONS (default 50) connections, the bare
 * Fastify ceiling measured right before. CPU per request is the service process's user + system
 * time over the window (/proc) divided by the requests: less disturbed by other load on a shared
 * machine than requests per second. BENCH_SERVICE_ARGS adds node flags (e.g. --cpu-prof
 * --cpu-prof-dir=/tmp/prof). The database is dropped at the end unless BENCH_KEEP=1.
 */
const { spawn } = require('node:child_process');
const { join, resolve } = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { freePort } = require('../sim/lib/service');
const { randomPoint, seedDrivers, seedRequestedRides, firstCategoryId } = require('./lib/city');
const { mintAccessToken } = require('./lib/jwt');
const { cpuMs } = require('./lib/stats');
const { benchServiceEnv, untilNearbyFromMemory, BENCH_JWT_SECRET } = require('./lib/service-env');

const ROOTS = process.argv.slice(2).map((r) => resolve(r));
if (ROOTS.length === 0) ROOTS.push(join(__dirname, '..'));
const ADMIN_URL = process.env.BENCH_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const RIDES = Number(process.env.BENCH_RIDES || 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const DURATION = Number(process.env.BENCH_DURATION || 5);
const WARMUP = Number(process.env.BENCH_WARMUP || 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const JWT_SECRET = BENCH_JWT_SECRET;
const DB = `nearby_cost_${process.pid}`;

function start(root, env, args = []) {
  const child = spawn(process.execPath, [...args, join(root, 'dist', 'src', 'main.js')], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((r) => child.on('exit', r));
  return { child, exited, stop: () => (child.kill('SIGTERM'), exited) };
}

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

const cannon = (options) => new Promise((ok, fail) => autocannon(options, (err, r) => (err ? fail(err) : ok(r))));

function nearbyRequests(token) {
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

async function measure(url, requests, pid) {
  const options = { url, connections: CONNECTIONS, pipelining: 1, requests };
  await cannon({ ...options, duration: WARMUP });
  const before = pid ? cpuMs(pid) : 0;
  const r = await cannon({ ...options, duration: DURATION });
  const cpu = pid ? cpuMs(pid) - before : 0;
  return {
    rps: Math.round(r.requests.average),
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx + r.errors,
    cpuUs: pid ? (cpu * 1000) / r.requests.total : undefined,
  };
}

async function main() {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB}`;
  const port = await freePort();
  const basePort = await freePort();
  const env = benchServiceEnv({ databaseUrl: url.toString(), port });
  const base = `http://127.0.0.1:${port}`;
  const baseline = spawn(process.execPath, [join(__dirname, 'baseline-server.js')], { env: { ...process.env, PORT: String(basePort) }, stdio: 'ignore' });
  const db = new Client({ connectionString: url.toString() });
  try {
    const first = start(ROOTS[0], env);
    await until(async () => (await fetch(`${base}/health/ready`)).ok, 120, 'migrated service');
    await first.stop();
    await db.connect();
    const [driverId] = await seedDrivers(db, 1, await firstCategoryId(db));
    const t0 = Date.now();
    await seedRequestedRides(db, 1, RIDES + 1);
    process.stdout.write(
      `seeded ${RIDES} rides in ${((Date.now() - t0) / 1000).toFixed(1)} s; load ${require('node:fs').readFileSync('/proc/loadavg', 'utf8').trim()}\n`,
    );
    const token = mintAccessToken(JWT_SECRET, driverId, 'driver', 24 * 3600);
    const args = process.env.BENCH_SERVICE_ARGS ? process.env.BENCH_SERVICE_ARGS.split(' ').filter(Boolean) : [];
    const results = ROOTS.map(() => []);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [i, root] of ROOTS.entries()) {
        const service = start(root, env, args);
        const spawnedAt = Date.now();
        await until(async () => (await fetch(`${base}/health/ready`)).ok, 120, 'ready');
        const readyS = (Date.now() - spawnedAt) / 1000;
        await untilNearbyFromMemory(base, 900);
        const memoryS = (Date.now() - spawnedAt) / 1000;
        const ceiling = await measure(`http://127.0.0.1:${basePort}/baseline`);
        const r = await measure(base, nearbyRequests(token), service.child.pid);
        await service.stop();
        const load = require('node:fs').readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
        results[i].push({ ...r, ratio: r.rps / ceiling.rps });
        process.stdout.write(
          `round ${round + 1} ${root}: ${r.rps} req/s, ceiling ${ceiling.rps}, ratio ${(r.rps / ceiling.rps).toFixed(3)}, p99 ${r.p99} ms, ` +
            `service CPU ${r.cpuUs.toFixed(1)} µs/request, non-2xx ${r.non2xx}; ready ${readyS.toFixed(2)} s, from memory ${memoryS.toFixed(2)} s; load ${load}\n`,
        );
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    for (const [i, root] of ROOTS.entries()) {
      const rs = results[i];
      process.stdout.write(
        `median ${root}: ratio ${median(rs.map((r) => r.ratio)).toFixed(3)}, p99 ${median(rs.map((r) => r.p99))} ms, CPU ${median(rs.map((r) => r.cpuUs)).toFixed(1)} µs/request\n`,
      );
    }
  } finally {
    baseline.kill('SIGTERM');
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
