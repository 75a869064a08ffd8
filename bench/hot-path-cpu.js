'use strict';
/**
 * Service CPU per request on the everyday hot paths (estimate, ride details, heartbeat, and the
 * health probe as a floor), for several builds side by side in one run:
 *
 *   node bench/hot-path-cpu.js base=/path/to/other/worktree this=.
 *
 * Each build's dist/src/main.js runs as its own process on its own fresh database; the same users,
 * driver and ride are set up in each through the API (as bench/run.js does). Then, round after
 * round with the builds' order alternating, each path gets HOTPATH_REQUESTS requests (10
 * connections) and the service process's CPU (user + system ticks from /proc, all threads: GC and
 * compiler included) is divided by the requests. On a shared machine CPU per request moves far less
 * with other load than throughput does; the median over rounds is reported.
 * Environment: HOTPATH_REQUESTS (default 20000), HOTPATH_ROUNDS (default 5), HOTPATH_ONLY (path
 * names, comma-separated), HOTPATH_WARMUP (requests per path before the rounds, default
 * HOTPATH_REQUESTS), HOTPATH_NODE_ARGS (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof), BENCH_ADMIN_URL.
 */
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { freePort } = require('../sim/lib/service');
const { benchServiceEnv, BENCH_OTP } = require('./lib/service-env');

const ADMIN_URL = process.env.BENCH_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REQUESTS = Number(process.env.HOTPATH_REQUESTS || 20_000);
const ROUNDS = Number(process.env.HOTPATH_ROUNDS || 5);
const OTP = BENCH_OTP;
const JSON_HEADERS = { 'content-type': 'application/json' };
const PICKUP = { address: '1 Market St', latitude: 37.7936, longitude: -122.3958 };
const DROPOFF = { address: '500 Castro St', latitude: 37.7609, longitude: -122.435 };
const RIDE_FIELDS = { pickup: PICKUP, dropoff: DROPOFF, ride_type: 'one_way', vehicle_category_id: 1, passenger_count: 1, children: 0 };

function ticks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function cannon(options) {
  return new Promise((ok, fail) => autocannon(options, (err, result) => (err ? fail(err) : ok(result))));
}

async function start(label, dir) {
  const name = `rh_hotpath_${label.replace(/\W/g, '_')}_${process.pid}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const port = await freePort();
  const env = benchServiceEnv({ databaseUrl: url.toString(), port });
  const nodeArgs = process.env.HOTPATH_NODE_ARGS ? process.env.HOTPATH_NODE_ARGS.split(' ').filter(Boolean) : [];
  const command = [process.execPath, ...nodeArgs, join(dir, 'dist', 'src', 'main.js')];
  const child = spawn(command[0], command.slice(1), { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${label} exited: ${output.slice(-2000)}`);
    if (i > 600) throw new Error(`${label} not live`);
    try {
      if ((await fetch(`${base}/health/live`)).ok) break;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { label, dir, child, base, database: name };
}

async function call(base, method, path, { body, token } = {}) {
  const headers = { ...(body ? JSON_HEADERS : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const res = await fetch(`${base}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

let phones = 0;
async function signUp(base, role) {
  phones += 1;
  const phone = `+1998${String(process.pid % 10000).padStart(4, '0')}${String(phones).padStart(4, '0')}`;
  await call(base, 'POST', '/api/v1/auth/send-otp', { body: { phone } });
  const verified = await call(base, 'POST', '/api/v1/auth/verify-otp', { body: { phone, otp: OTP } });
  const session = await call(base, 'POST', '/api/v1/auth/register', {
    token: verified.access_token,
    body: { role, first_name: role === 'driver' ? 'Bench' : 'Pat', last_name: 'Mark' },
  });
  return session.access_token;
}

async function prepare(svc) {
  const passenger = await signUp(svc.base, 'passenger');
  const driver = await signUp(svc.base, 'driver');
  await call(svc.base, 'PUT', '/api/v1/driver/profile', {
    token: driver,
    body: {
      vehicle_category_id: 1,
      vehicle_make: 'Toyota',
      vehicle_model: 'Prius',
      vehicle_plate: 'BENCH1',
      vehicle_color: 'Blue',
      vehicle_year: 2022,
      license_number: 'B-1',
    },
  });
  await call(svc.base, 'PUT', '/api/v1/driver/status', { token: driver, body: { is_online: true } });
  await call(svc.base, 'PUT', '/api/v1/driver/location', { token: driver, body: { latitude: PICKUP.latitude + 0.002, longitude: PICKUP.longitude } });
  const ride = await call(svc.base, 'POST', '/api/v1/rides/book', { token: passenger, body: { ...RIDE_FIELDS, payment_method: 'cash' } });
  const bearer = (t) => ({ authorization: `Bearer ${t}` });
  svc.paths = {
    'GET /health/live': { method: 'GET', path: '/health/live' },
    'POST /api/v1/rides/estimate': {
      method: 'POST',
      path: '/api/v1/rides/estimate',
      headers: { ...JSON_HEADERS, ...bearer(passenger) },
      body: JSON.stringify(RIDE_FIELDS),
    },
    'GET /api/v1/rides/{id}': { method: 'GET', path: `/api/v1/rides/${ride.id}`, headers: bearer(passenger) },
    'PUT /api/v1/driver/location': {
      method: 'PUT',
      path: '/api/v1/driver/location',
      headers: { ...JSON_HEADERS, ...bearer(driver) },
      body: JSON.stringify({ latitude: PICKUP.latitude + 0.003, longitude: PICKUP.longitude + 0.001, heading: 90, speed: 8.5 }),
    },
  };
}

async function run(svc, name, amount) {
  const p = svc.paths[name];
  const before = ticks(svc.child.pid);
  const r = await cannon({ url: svc.base + p.path, method: p.method, headers: p.headers, body: p.body, connections: 10, amount });
  const after = ticks(svc.child.pid);
  if (r.non2xx || r.errors) throw new Error(`${svc.label} ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return ((after - before) * 10_000) / r.requests.total;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const builds = process.argv.slice(2).map((arg) => {
    const [label, dir] = arg.split('=');
    return { label, dir: resolve(dir) };
  });
  const services = [];
  try {
    for (const b of builds) services.push(await start(b.label, b.dir));
    for (const svc of services) await prepare(svc);
    const only = process.env.HOTPATH_ONLY ? process.env.HOTPATH_ONLY.split(',') : undefined;
    const names = Object.keys(services[0].paths).filter((n) => !only || only.includes(n));
    for (const svc of services) for (const name of names) await run(svc, name, Number(process.env.HOTPATH_WARMUP || REQUESTS));
    const figures = new Map(services.map((s) => [s.label, new Map(names.map((n) => [n, []]))]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...services].reverse() : services;
      for (const name of names)
        for (const svc of order)
          figures
            .get(svc.label)
            .get(name)
            .push(await run(svc, name, REQUESTS));
      process.stdout.write(`round ${round + 1}/${ROUNDS} done, load ${readFileSync('/proc/loadavg', 'utf8').trim()}\n`);
    }
    const first = services[0].label;
    for (const name of names) {
      const cells = services.map((s) => {
        const xs = figures.get(s.label).get(name);
        const m = median(xs);
        const ratio = s.label === first ? '' : ` (${(m / median(figures.get(first).get(name))).toFixed(2)}x ${first})`;
        return `${s.label} ${m.toFixed(1)} µs [${xs.map((x) => x.toFixed(0)).join(' ')}]${ratio}`;
      });
      process.stdout.write(`${name.padEnd(30)} ${cells.join(' | ')}\n`);
    }
  } finally {
    for (const svc of services) {
      svc.child.kill('SIGTERM');
      await new Promise((r) => (svc.child.exitCode !== null ? r() : svc.child.once('exit', r)));
      const admin = new Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${svc.database} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exitCode = 1;
});
