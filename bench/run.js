'use strict';
/**
 * npm run bench: bare Fastify (the ceiling) against the built service, same machine, same run.
 *
 * Starts both as child processes (autocannon runs here), signs users up through the public API
 * (development mode with a fixed OTP; auth rate limits off, or every request would be a 429),
 * warms each endpoint up, then measures it right after a ceiling run, and reports it as a ratio
 * of that ceiling (robust to load that comes and goes on the machine). Then the city scale
 * (bench/city-scenarios.js): requested rides, drivers and passengers written through SQL into the
 * service's database; nearby over 100k and 1M rides, heartbeats from 10k drivers, ride_requested
 * to 10k sockets, accept races, and the start-up time on that data.
 * Results: bench/results/latest.json; a full run also replaces bench/reference-run.json and rewrites
 * BENCHMARKS.md from it (bench/report.js).
 *
 * --quick: the same scenarios scaled down (CI keeps the bench working; figures are not judged).
 * A run fails only when the bench itself breaks: a scenario errors, a race has two winners,
 * deliveries are missing; never on speed.
 *
 * Environment: DATABASE_URL (else a fresh database on BENCH_ADMIN_URL, default the machine's
 * postgres://postgres@127.0.0.1:5432/postgres, dropped at the end unless BENCH_KEEP=1), REDIS_URL
 * (optional), BENCH_DURATION (s, default 5; 1 with --quick), BENCH_WARMUP (s, default 2; 0.5 with
 * --quick), BENCH_CONNECTIONS (default 50), BENCH_ONLY (comma-separated hot-path names),
 * BENCH_SKIP_BUILD=1, BENCH_CITY (comma-separated city scenarios: capacity, nearby, heartbeats, fanout,
 * races, restart; `none` for the hot paths only), BENCH_RIDES (comma-separated ride counts for nearby).
 * A run narrowed by BENCH_ONLY, BENCH_CITY or BENCH_RIDES touches neither.
 */
const { mkdirSync, writeFileSync } = require('node:fs');
const { cpus, loadavg } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { firstCategoryId } = require('./lib/city');
const { createHotPaths } = require('./lib/hot-paths');
const { createProcesses, gitCommit } = require('./lib/processes');
const { benchServiceEnv, BENCH_JWT_SECRET, BENCH_OTP } = require('./lib/service-env');
const { freePort } = require('../sim/lib/service');
const { cityCapacity } = require('./city-capacity');
const { acceptRaces, heartbeats, mintAccessToken, nearbyBehindCancelled, nearbyCity, nearbyPages, rssMb, seedDrivers } = require('./city-scenarios');
const { fanOut } = require('./city-fanout');
const { judge, mark, writeMarkdown, REFERENCE } = require('./report');
const { ensureBuilt } = require('../scripts/build-if-stale');

const ROOT = join(__dirname, '..');
const QUICK = process.argv.includes('--quick');
const DURATION = Number(process.env.BENCH_DURATION || (QUICK ? 1 : 5));
const WARMUP = Number(process.env.BENCH_WARMUP || (QUICK ? 0.5 : 2));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((s) => s.trim()) : undefined;
const SCALE = QUICK
  ? { rides: [10_000], cancelled: 2_000, drivers: 1_000, bookings: 3, races: 20, workers: 2 }
  : { rides: [100_000, 1_000_000], cancelled: 200_000, drivers: 10_000, bookings: 5, races: 200, workers: 2 };
if (process.env.BENCH_RIDES) SCALE.rides = process.env.BENCH_RIDES.split(',').map(Number);
const CITY = process.env.BENCH_CITY ? process.env.BENCH_CITY.split(',').map((s) => s.trim()) : undefined;
const runsCity = (name) => !CITY || CITY.includes(name);
const PARTIAL = Boolean(ONLY || CITY || process.env.BENCH_RIDES);
const ADMIN_URL = process.env.BENCH_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const JWT_SECRET = BENCH_JWT_SECRET;
const OTP = BENCH_OTP;

const { children, startProcess, waitUntilLive, stopAll, provisionDatabase } = createProcesses({ root: ROOT, adminUrl: ADMIN_URL });
const { api, signUp, prepare, scenarios, measure, probe, table, cpuSnapshot } = createHotPaths({
  connections: CONNECTIONS,
  warmup: WARMUP,
  duration: DURATION,
  otp: OTP,
});

const loadAtStart = loadavg()[0];

async function main() {
  if (!process.env.BENCH_SKIP_BUILD) {
    if (ensureBuilt((line) => process.stdout.write(`${line}\n`))) process.stdout.write('Built.\n');
  }
  const [basePort, servicePort] = [await freePort(), await freePort()];
  const baseline = startProcess('baseline', [join(__dirname, 'baseline-server.js')], { ...process.env, PORT: String(basePort) });
  const databaseUrl = await provisionDatabase();
  const databaseName = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  // Reads which backends serve the service (for CPU per request); failures only lose that figure.
  const probeDb = new Client({ connectionString: databaseUrl });
  await probeDb.connect().catch(() => undefined);

  const env = benchServiceEnv({ databaseUrl, port: servicePort });
  // BENCH_SERVICE_ARGS: extra node flags for the service (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof).
  const serviceArgs = [
    ...(process.env.BENCH_SERVICE_ARGS ? process.env.BENCH_SERVICE_ARGS.split(' ').filter(Boolean) : []),
    join(ROOT, 'dist', 'src', 'main.js'),
  ];
  let service = startProcess('service', serviceArgs, env);
  const baseBase = `http://127.0.0.1:${basePort}`;
  const serviceBase = `http://127.0.0.1:${servicePort}`;
  await waitUntilLive(baseline, `${baseBase}/baseline`);
  await waitUntilLive(service, `${serviceBase}/health/live`);

  process.stdout.write('Preparing users, a driver and a ride through the API…\n');
  const call = api(serviceBase);
  const state = await prepare(call);
  const memory = { rss_idle_mb: rssMb(service.child.pid) };
  const baselineScenario = { name: 'ceiling: bare Fastify', method: 'GET', path: '/baseline' };

  process.stdout.write(`Measuring: ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per scenario…\n`);
  const rows = [];
  const failures = [];
  const ceiling = await measure(baseBase, baselineScenario);
  rows.push({ name: baselineScenario.name, ...ceiling, baseline_requests_per_second: ceiling.requests_per_second, ratio: 1 });
  process.stdout.write(`  ceiling (bare Fastify): ${ceiling.requests_per_second} req/s\n`);
  // The machine may be busy with other work that comes and goes: each scenario is paired with a
  // ceiling measured right before it, and its ratio is taken against that one.
  // --quick only checks that the bench works: it compares with the first ceiling to save time.
  const measurePaired = async (scenario) => {
    const base = QUICK ? ceiling : await measure(baseBase, baselineScenario);
    const result = await measure(serviceBase, scenario, () => cpuSnapshot(service.child.pid, probeDb, databaseName));
    const row = { name: scenario.name, ...result, baseline_requests_per_second: base.requests_per_second };
    row.ratio = result.requests_per_second / base.requests_per_second;
    const bad = result.non_2xx + result.errors + result.timeouts;
    if (bad > 0) row.note = `${bad} of ${result.total + result.errors} requests failed`;
    // Slowness is never a failure; requests that mostly fail mean the bench (or the service) broke.
    if (result.total === 0 || bad > result.total / 2) failures.push(`${scenario.name}: ${bad} of ${result.total + result.errors} requests failed`);
    const cpu = result.cpu_per_request ? `, CPU/request: service ${result.cpu_per_request.service_us} µs, database ${result.cpu_per_request.db_us} µs` : '';
    process.stdout.write(
      `  ${scenario.name}: ${result.requests_per_second} req/s (ceiling ${base.requests_per_second}, ratio ${row.ratio.toFixed(2)}, p99 ${result.latency_ms.p99} ms${cpu})\n`,
    );
    return row;
  };
  for (const scenario of scenarios(state)) {
    if (ONLY && !ONLY.some((o) => scenario.name.includes(o))) continue;
    const reason = scenario.skip || (await probe(serviceBase, scenario));
    if (reason) {
      rows.push({ name: scenario.name, note: `skipped: ${reason}` });
      failures.push(`${scenario.name}: ${reason}`);
      process.stdout.write(`  ${scenario.name}: skipped (${reason})\n`);
      continue;
    }
    rows.push(await measurePaired(scenario));
  }
  memory.rss_after_http_load_mb = rssMb(service.child.pid);
  if (process.env.BENCH_HEAP_SNAPSHOT === '1') {
    // With BENCH_SERVICE_ARGS="--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=DIR": what holds the memory.
    process.kill(service.child.pid, 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 15_000));
  }

  const report = {
    at: new Date().toISOString(),
    commit: gitCommit(ROOT),
    // The command as run, with the knobs that narrowed or changed it (bench/merge-runs.js names runs by it).
    command: [
      ...Object.keys(process.env)
        .filter((k) => /^(BENCH_(?!ADMIN_URL|SKIP_BUILD)|METRICS_TOKEN$|DRIVER_LOCATION_MAX_AGE_SECONDS$)/.test(k))
        .sort()
        .map((k) => `${k}=${process.env[k]}`),
      `npm run bench${QUICK ? ' -- --quick' : ''}`,
    ].join(' '),
    quick: QUICK,
    node: process.version,
    cpus: cpus().length,
    cpu_model: cpus()[0] ? cpus()[0].model : 'unknown',
    database: process.env.DATABASE_URL ? 'DATABASE_URL' : 'a fresh database on the machine PostgreSQL',
    redis: Boolean(process.env.REDIS_URL),
    connections: CONNECTIONS,
    duration_s: DURATION,
    warmup_s: WARMUP,
    ws_workers: SCALE.workers,
    scale: SCALE,
    memory,
    results: rows,
    setup_notes: state.notes,
  };
  const city = async (label, fn) => {
    try {
      const row = await fn();
      rows.push(row);
      if (row.failure) failures.push(`${row.name}: ${row.failure}`);
      return row;
    } catch (err) {
      rows.push({ name: label, note: `error: ${err.message}` });
      failures.push(`${label}: ${err.stack || err.message}`);
      process.stdout.write(`  ${label}: error ${err.message}\n`);
      return undefined;
    }
  };

  // City scale: everything below writes through SQL into the service's database.
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const categoryId = await firstCategoryId(db);
    process.stdout.write(`City scale: seeding ${SCALE.drivers} drivers through SQL…\n`);
    const driverIds = await seedDrivers(db, SCALE.drivers, categoryId);
    const ctx = {
      db,
      base: serviceBase,
      wsBase: serviceBase.replace('http', 'ws'),
      secret: JWT_SECRET,
      categoryId,
      driverIds,
      driverTokens: driverIds.map((id) => mintAccessToken(JWT_SECRET, id, 'driver')),
      measurePaired,
      servicePid: () => service.child.pid,
      rssIdleMb: memory.rss_idle_mb,
      // The open-requests index learns of rides written behind the service's back only at start-up
      // (or its next reconciliation): nearby restarts the service on the seeded rides.
      restartService: async () => {
        service.child.kill('SIGTERM');
        await service.exited;
        children.splice(children.indexOf(service), 1);
        const spawnedAt = Date.now();
        service = startProcess('service (restarted on the seeded rides)', serviceArgs, env);
        await waitUntilLive(service, `${serviceBase}/health/ready`);
        return (Date.now() - spawnedAt) / 1000;
      },
      // A fresh instance on the same database (the capacity scenario starts and stops its own).
      startInstance: async (extraEnv) => {
        const port = await freePort();
        const handle = startProcess(`service :${port}`, serviceArgs, { ...env, ...extraEnv, PORT: String(port) });
        await waitUntilLive(handle, `http://127.0.0.1:${port}/health/ready`);
        const stop = async () => {
          handle.child.kill('SIGTERM');
          await Promise.race([handle.exited, new Promise((r) => setTimeout(r, 15_000))]);
          if (handle.child.exitCode === null) handle.child.kill('SIGKILL');
          children.splice(children.indexOf(handle), 1);
        };
        return {
          base: `http://127.0.0.1:${port}`,
          pid: handle.child.pid,
          stop,
          exitCode: () => handle.child.exitCode ?? handle.child.signalCode,
          output: handle.output,
        };
      },
    };
    // Capacity first: it books its own rides and must not poll nearby over the 1M seeded below.
    if (runsCity('capacity'))
      report.capacity = await city('city capacity', () => cityCapacity(ctx, { quick: QUICK, log: (line) => process.stdout.write(`${line}\n`) }));
    let seeded = 0;
    for (const total of runsCity('nearby') ? SCALE.rides : []) {
      process.stdout.write(`  seeding rides up to ${total}…\n`);
      const row = await city(`nearby, ${total} rides`, () => nearbyCity(ctx, seeded, total));
      if (row) row.city_rides = total;
      // Against bare Fastify sending the same page (issue 27), at the first size (100k; 10k with --quick).
      if (row && total === SCALE.rides[0]) {
        const load = { connections: CONNECTIONS, warmup: WARMUP, duration: DURATION };
        await city(`nearby pages, ${total} rides`, () => nearbyPages(ctx, total, load));
      }
      seeded = total;
    }
    if (runsCity('nearby')) {
      const cancelled = SCALE.cancelled;
      process.stdout.write(`  nearby: 20 open requests behind ${cancelled.toLocaleString('en-US')} freshly cancelled…\n`);
      await city(`nearby, 20 open behind ${cancelled} cancelled`, () => nearbyBehindCancelled(ctx, seeded, { cancelled }));
    }
    if (runsCity('heartbeats')) await city(`heartbeats, ${SCALE.drivers} drivers`, () => heartbeats(ctx));
    if (runsCity('fanout')) {
      process.stdout.write(`  fan-out: ${SCALE.drivers} sockets over ${SCALE.workers} workers…\n`);
      const fanPassenger = await signUp(call, 'passenger');
      const fan = await city('fan-out', () => fanOut(ctx, { workers: SCALE.workers, bookings: SCALE.bookings, passengerToken: fanPassenger.accessToken }));
      if (fan)
        process.stdout.write(
          `  fan-out: ${fan.delivered}/${fan.expected_deliveries} delivered, p50 ${fan.latency_ms.p50} ms, p99 ${fan.latency_ms.p99} ms, ${fan.kb_per_socket} KB/socket\n`,
        );
    }
    const race = runsCity('races')
      ? (process.stdout.write(`  accept races: ${SCALE.races} rides × 10…\n`), await city('accept races', () => acceptRaces(ctx, { rides: SCALE.races })))
      : undefined;
    if (race)
      process.stdout.write(
        `  accept races: ${race.ok} × 200, ${race.conflict} × 409, ${race.server_errors} × 5xx, ${race.rides_with_two_or_more} rides with two winners\n`,
      );
    memory.rss_end_mb = rssMb(service.child.pid);

    // Start-up on the data just written: stop the service, start it again on the same database.
    if (!runsCity('restart')) return finish(report, rows, failures);
    const ridesInDatabase = Number((await db.query('SELECT count(*) AS n FROM rides')).rows[0].n);
    service.child.kill('SIGTERM');
    await service.exited;
    children.splice(children.indexOf(service), 1);
    const spawnedAt = Date.now();
    service = startProcess('service (restart)', serviceArgs, env);
    try {
      await waitUntilLive(service, `${serviceBase}/health/ready`);
      report.startup = { seconds: (Date.now() - spawnedAt) / 1000, rides_in_database: ridesInDatabase };
      process.stdout.write(`  start-up on ${ridesInDatabase} rides: ${report.startup.seconds} s to /health/ready\n`);
    } catch (err) {
      failures.push(`restart: ${err.message}`);
    }
  } finally {
    await db.end();
    await probeDb.end().catch(() => undefined);
  }
  return finish(report, rows, failures);
}

function finish(report, rows, failures) {
  report.load = `load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`;
  report.targets = judge(report);
  report.failures = failures;
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(join(__dirname, 'results', 'latest.json'), json);
  if (!QUICK && !PARTIAL) {
    writeFileSync(REFERENCE, json);
    writeMarkdown(join(ROOT, 'BENCHMARKS.md'), report);
  }
  const targets = report.targets.map((t) => `  ${mark(t.met).padEnd(7)} ${t.target}: ${t.figure}`).join('\n');
  process.stdout.write(
    `\n${table(rows)}\n\nTargets${QUICK ? ' (--quick: not judged)' : ''}:\n${targets}\n\nEach ratio is against the ceiling measured just before it. Written to bench/results/latest.json${QUICK || PARTIAL ? '' : ', bench/reference-run.json and BENCHMARKS.md'}\n`,
  );
  if (failures.length) {
    process.stderr.write(`\nThe bench broke:\n${failures.map((f) => `  - ${f}`).join('\n')}\n`);
    process.exitCode = 1;
  }
}

main()
  .catch((err) => {
    process.stderr.write(`bench failed: ${err.stack || err}\n`);
    process.exitCode = 1;
  })
  .finally(stopAll);
