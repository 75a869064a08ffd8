'use strict';
/**
 * node bench/nearby-instructions.js [ROOT ...]: instructions the service executes per
 * GET /driver/rides/nearby served from the open-requests index, counted by valgrind's callgrind,
 * for each ROOT (a checkout with a built dist/; default this one). Instruction counts hardly move
 * with other load on the machine, unlike requests per second or CPU time.
 *
 * One fresh database (BENCH_ADMIN_URL) with BENCH_RIDES (default 20,000: pages are still full, 50
 * rides of the driver's category within 5 km) requested rides and one approved driver. Each ROOT's
 * service runs under callgrind with instrumentation off until nearby is answered from memory and
 * BENCH_WARM requests (default 300) have warmed it up; then instrumentation is switched on for
 * BENCH_REQUESTS (default 1,000) requests from random points (4 connections) and the count dumped.
 * Instructions per request = the window's total / requests (the window also holds the timers that
 * fire in it). BENCH_REPEAT (default 2) windows per ROOT. Needs valgrind.
 */
const { execFileSync, spawn } = require('node:child_process');
const { readFileSync, readdirSync, rmSync, mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { freePort } = require('../sim/lib/service');
const { CENTER, randomPoint, seedDrivers, seedRequestedRides, firstCategoryId } = require('./lib/city');
const { mintAccessToken } = require('./lib/jwt');

const ROOTS = process.argv.slice(2).map((r) => resolve(r));
if (ROOTS.length === 0) ROOTS.push(join(__dirname, '..'));
const ADMIN_URL = process.env.BENCH_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const RIDES = Number(process.env.BENCH_RIDES || 20_000);
const WARM = Number(process.env.BENCH_WARM || 300);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 1_000);
const REPEAT = Number(process.env.BENCH_REPEAT || 2);
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const DB = `nearby_instr_${process.pid}`;

async function until(check, seconds, what) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${what} not within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function nearby(base, token, amount) {
  const requests = [
    {
      method: 'GET',
      headers: { authorization: `Bearer ${token}` },
      setupRequest: (req) => {
        const p = randomPoint();
        return { ...req, path: `/api/v1/driver/rides/nearby?latitude=${p.latitude.toFixed(6)}&longitude=${p.longitude.toFixed(6)}&radius_km=5` };
      },
    },
  ];
  return new Promise((ok, fail) =>
    autocannon({ url: base, connections: 4, amount, requests, timeout: 60 }, (err, r) => (err ? fail(err) : ok(r))),
  );
}

/** The instruction total of the newest dump in dir (callgrind writes "summary:" or "totals:"). */
function dumpedInstructions(dir, pid) {
  const files = readdirSync(dir).filter((f) => f.startsWith(`cg.${pid}`)).sort();
  let best = 0;
  for (const f of files) {
    const m = /^(?:summary|totals):\s+(\d+)/m.exec(readFileSync(join(dir, f), 'utf8'));
    if (m) best = Math.max(best, Number(m[1]));
    rmSync(join(dir, f));
  }
  return best;
}

async function main() {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB}`;
  const port = await freePort();
  const env = { ...process.env, DATABASE_URL: url.toString(), NODE_ENV: 'development', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', JWT_SECRET, RIDE_REQUEST_TTL_MINUTES: '120' };
  const base = `http://127.0.0.1:${port}`;
  const db = new Client({ connectionString: url.toString() });
  const out = mkdtempSync(join(tmpdir(), 'nearby-cg-'));
  try {
    const first = spawn(process.execPath, [join(ROOTS[0], 'dist', 'src', 'main.js')], { cwd: ROOTS[0], env, stdio: 'ignore' });
    await until(async () => (await fetch(`${base}/health/ready`)).ok, 120, 'migrated service');
    first.kill('SIGTERM');
    await new Promise((r) => first.on('exit', r));
    await db.connect();
    const [driverId] = await seedDrivers(db, 1, await firstCategoryId(db));
    await seedRequestedRides(db, 1, RIDES + 1);
    const token = mintAccessToken(JWT_SECRET, driverId, 'driver', 24 * 3600);
    const probe = `${base}/api/v1/driver/rides/nearby?latitude=${CENTER.latitude}&longitude=${CENTER.longitude}&radius_km=5`;
    for (const root of ROOTS) {
      const args = ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${join(out, 'cg.%p')}`, process.execPath, join(root, 'dist', 'src', 'main.js')];
      const child = spawn('valgrind', args, { cwd: root, env, stdio: 'ignore' });
      try {
        await until(async () => (await (await fetch(probe, { headers: { authorization: `Bearer ${token}` } })).text()).startsWith('[{"id":"'), 900, 'nearby from memory under valgrind');
        await nearby(base, token, WARM);
        const counts = [];
        for (let i = 0; i < REPEAT; i += 1) {
          execFileSync('callgrind_control', ['-z', String(child.pid)], { stdio: 'ignore' });
          execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
          const r = await nearby(base, token, REQUESTS);
          execFileSync('callgrind_control', ['-i', 'off', String(child.pid)], { stdio: 'ignore' });
          execFileSync('callgrind_control', ['-d', String(child.pid)], { stdio: 'ignore' });
          const total = dumpedInstructions(out, child.pid);
          const ok = r.requests.total - r.non2xx;
          counts.push(total / r.requests.total);
          process.stdout.write(`${root}: window ${i + 1}: ${r.requests.total} requests (${ok} 2xx), ${(total / 1e6).toFixed(1)} M instructions, ${Math.round(total / r.requests.total).toLocaleString('en-US')} per request\n`);
        }
        const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
        process.stdout.write(`${root}: ${Math.round(mean).toLocaleString('en-US')} instructions per request (mean of ${counts.length} windows)\n`);
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r)));
      }
    }
  } finally {
    await db.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin.end();
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exitCode = 1;
});
