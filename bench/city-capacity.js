'use strict';
/**
 * City capacity (issue 27): the largest number D of online drivers one instance holds, then two
 * instances over Redis, with heartbeat and nearby (every endpoint that is not a ride write) p99 ≤ 50 ms,
 * ride writes and ride_requested p99 ≤ 100 ms, and no errors.
 * Each step seeds D drivers and the passengers through SQL (tokens minted by the bench), starts fresh
 * instance(s) on the database, and lets bench/capacity-worker.js processes play the city through the
 * public API: every driver holds a socket, heartbeats every 5 s and polls nearby every 10 s; passengers
 * book D/1000 rides a second, drivers bid on the ride_requested they get, passengers accept, drivers
 * carry the ride to completion. Steps go up until the first that fails the targets.
 */
const { fork, spawn } = require('node:child_process');
const { loadavg } = require('node:os');
const { join } = require('node:path');
const { mintAccessToken } = require('./lib/jwt');
const { cpuMs, percentiles } = require('./lib/stats');
const { databaseCpuMs, listenOverflows, scrape, serverWindow } = require('./lib/capacity-metrics');
const { activitySampler, sqlProbe, sqlWindow } = require('./lib/capacity-sql');
const { openFileLimit, workerCall } = require('./lib/worker-call');
const { freePort } = require('../sim/lib/service');

// 15,000: the most the machine's open-file limit (20,000) lets one instance hold with its other sockets.
const FULL = { steps: [5000, 10_000, 15_000], warmupS: 8, measureS: 20, stopAtFailure: true, sockets: 256 };
const QUICK = { steps: [200], warmupS: 3, measureS: 4, stopAtFailure: false, sockets: 32 };
const ENDPOINT_P99_MS = 50;
const RIDE_WRITE_P99_MS = 100;
const RIDE_REQUESTED_P99_MS = 100;
/** A ride write: a command on a ride (book, bid, accept, status, cancel), by its label `METHOD /rides/…` or `METHOD /driver/rides/…`. */
const isRideWrite = (label) => /^(POST|PUT|PATCH|DELETE) \/(driver\/)?rides\b/.test(label);
const MATCHING_RADIUS_KM = 5;
const CITY_KM2 = 67 * 67; // lib/city.js: the 67 × 67 km square every position and pickup is drawn from
const WORKERS = 2;

let seedRound = 0;

/** D approved online drivers and P passengers, through SQL, with phone prefixes of their own per step. */
async function seedStep(db, drivers, passengers, categoryId) {
  seedRound += 1;
  const prefix = `+4918${String(seedRound).padStart(2, '0')}`;
  const insertUsers = (kind, role, count) =>
    db.query(
      `INSERT INTO users (phone, first_name, last_name, role, is_registered, registered_at)
       SELECT $1 || $2 || lpad(i::text, 6, '0'), 'C' || i, 'Capacity', $3, true, now() FROM generate_series(1, $4::int) i
       RETURNING id`,
      [prefix, kind, role, count],
    );
  const driverIds = (await insertUsers('1', 'driver', drivers)).rows.map((r) => r.id);
  await db.query(
    `INSERT INTO drivers (user_id, status, is_online, vehicle_category_id, vehicle_make, vehicle_model, vehicle_plate,
                          vehicle_color, vehicle_year, license_number)
     SELECT id, 'approved', true, $2, 'Toyota', 'Prius', 'C-' || id, 'Blue', 2022, 'CL-' || id FROM unnest($1::int[]) id`,
    [driverIds, categoryId],
  );
  const passengerIds = (await insertUsers('2', 'passenger', passengers)).rows.map((r) => r.id);
  await db.query('ANALYZE users');
  await db.query('ANALYZE drivers');
  return { driverIds, passengerIds };
}

/** Redis for the two-instance mode: REDIS_URL, else a throwaway redis-server when one is installed. */
async function redisFor(quick) {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => undefined };
  const port = await freePort();
  const server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const failed = await new Promise((resolve) => {
    server.on('error', () => resolve(true));
    setTimeout(() => resolve(false), quick ? 300 : 500);
  });
  if (failed) return undefined;
  return { url: `redis://127.0.0.1:${port}`, stop: async () => void server.kill('SIGTERM') };
}

/**
 * Every socket is a file descriptor of the instance: its share of the drivers' and passengers' live
 * sockets, the generators' keep-alive connections (3 pools a worker), its database pool, and slack.
 * An instance past its limit fails accepts (EMFILE) and the step measures that, not capacity.
 */
function descriptorsNeeded(D, n, passengerCount, timing) {
  return Math.ceil((D + passengerCount) / n) + WORKERS * 3 * timing.sockets + Number(process.env.DB_POOL_SIZE || 10) + 100;
}

/** One step: D drivers on `instances` fresh instances; returns the row of figures. */
async function runStep(ctx, { drivers: D, instances: n, redisUrl, timing }) {
  const bookingsPerSecond = Math.max(1, D / 1000);
  const passengerCount = Math.ceil(bookingsPerSecond * 45) + 10; // a ride holds its passenger ≤ ~25 s
  const needed = descriptorsNeeded(D, n, passengerCount, timing);
  const limit = openFileLimit();
  if (limit !== undefined && needed > limit) {
    const skipped = `each instance needs about ${needed.toLocaleString('en-US')} file descriptors (sockets) and the open-file limit is ${limit.toLocaleString('en-US')} (ulimit -n)`;
    return { drivers: D, instances: n, redis: Boolean(redisUrl), skipped, held: false, why_not: `skipped: ${skipped}` };
  }
  const seeded = await seedStep(ctx.db, D, passengerCount, ctx.categoryId);
  const prefix = `bench-capacity-${process.pid}-${seedRound}:`;
  const probe = sqlProbe();
  const extraEnv = {
    METRICS_TOKEN: 'capacity-metrics',
    MATCHING_RADIUS_KM: String(MATCHING_RADIUS_KM),
    ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix } : {}),
    ...(probe ? probe.env : {}),
  };
  const services = [];
  const workers = [];
  const row = { drivers: D, instances: n, redis: Boolean(redisUrl), bookings_per_second: bookingsPerSecond };
  try {
    for (let i = 0; i < n; i += 1) services.push(await ctx.startInstance(extraEnv));
    const user = (role) => (id, i) => ({ id, token: mintAccessToken(ctx.secret, id, role), base: services[i % n].base });
    const driverUsers = seeded.driverIds.map(user('driver'));
    const passengerUsers = seeded.passengerIds.map(user('passenger'));
    // BENCH_CAPACITY_WORKER_ARGS: node flags for the load generators (e.g. --cpu-prof --cpu-prof-dir=DIR).
    const execArgv = (process.env.BENCH_CAPACITY_WORKER_ARGS || '').split(' ').filter(Boolean);
    for (let w = 0; w < WORKERS; w += 1)
      workers.push(fork(join(__dirname, 'capacity-worker.js'), [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    const share = (list, w) => list.filter((_, i) => i % WORKERS === w);
    const t0 = Date.now();
    const connected = await Promise.all(
      workers.map((worker, w) =>
        workerCall(
          worker,
          { cmd: 'connect', drivers: share(driverUsers, w), passengers: share(passengerUsers, w), maxSockets: timing.sockets },
          'connected',
          'capacity-worker',
        ),
      ),
    );
    row.connect_s = (Date.now() - t0) / 1000;
    instancesAlive(services);
    row.sockets_failed = connected.reduce((s, c) => s + c.failed, 0);
    // About 3 bids a ride, whatever D: a receiver bids with 3 / (expected receivers around a pickup).
    const receivers = (D * Math.PI * MATCHING_RADIUS_KM ** 2) / CITY_KM2;
    const config = { categoryId: ctx.categoryId, bookingIntervalMs: (1000 * WORKERS) / bookingsPerSecond, bidProbability: Math.min(1, 3 / receivers) };
    await Promise.all(workers.map((worker) => workerCall(worker, { cmd: 'run', config }, 'running', 'capacity-worker')));
    await new Promise((r) => setTimeout(r, timing.warmupS * 1000));
    instancesAlive(services);
    const cpuBefore = services.map((s) => cpuMs(s.pid));
    const dbBefore = await databaseCpuMs(ctx.db);
    const scraped = await Promise.all(services.map((s) => scrape(s.base)));
    const overflowsBefore = listenOverflows();
    const sqlBefore = probe ? await Promise.all(services.map((s) => probe.dump(s.pid))) : [];
    await Promise.all(workers.map((worker) => workerCall(worker, { cmd: 'measure' }, 'measuring', 'capacity-worker')));
    const measuredFrom = Date.now();
    const stopSampling = probe ? activitySampler(ctx.db) : undefined;
    await new Promise((r) => setTimeout(r, timing.measureS * 1000));
    const stats = await Promise.all(workers.map((worker) => workerCall(worker, { cmd: 'stop' }, 'stats', 'capacity-worker')));
    instancesAlive(services);
    const seconds = (Date.now() - measuredFrom) / 1000;
    const sqlAfter = probe ? await Promise.all(services.map((s) => probe.dump(s.pid))) : [];
    if (stopSampling) row.database_backends = await stopSampling();
    const serviceCpuMs = services.reduce((s, svc, i) => s + (cpuMs(svc.pid) - cpuBefore[i]), 0);
    let dbCpuMs = 0;
    for (const [pid, ms] of await databaseCpuMs(ctx.db)) if (ms !== undefined) dbCpuMs += ms - (dbBefore.get(pid) ?? 0);
    row.load_average = loadavg()[0];
    row.listen_overflows = listenOverflows() - overflowsBefore;
    row.event_loop = await Promise.all(services.map(async (s, i) => serverWindow(scraped[i], await scrape(s.base))));
    row.database_cpu_percent = Math.round(dbCpuMs / ((Date.now() - measuredFrom) / 1000) / 10);
    Object.assign(row, summarise(stats, seconds, serviceCpuMs));
    if (probe) row.sql = services.map((_, i) => sqlWindow(sqlBefore[i], sqlAfter[i], seconds, row.requests / n));
  } finally {
    await Promise.all(
      workers.map((worker) => (worker.connected ? workerCall(worker, { cmd: 'close' }, 'closed', 'capacity-worker').catch(() => undefined) : undefined)),
    );
    for (const worker of workers) if (worker.exitCode === null) worker.kill();
    for (const s of services) await s.stop();
    if (probe) probe.remove();
    // The step's drivers leave the city: the next step's instances must not count them.
    await ctx.db.query('UPDATE drivers SET is_online = false WHERE user_id = ANY($1::int[])', [seeded.driverIds]);
  }
  judgeStep(row);
  return row;
}

/** An instance that exited mid-step breaks the step: say how, with the end of its output. */
function instancesAlive(services) {
  for (const s of services) {
    const code = s.exitCode ? s.exitCode() : null;
    if (code !== null && code !== undefined) throw new Error(`the instance at ${s.base} exited (${code}) during the step:\n${s.output().slice(-2000)}`);
  }
}

function summarise(stats, seconds, serviceCpuMs) {
  const endpoints = {};
  let requests = 0;
  let errors = 0;
  for (const s of stats) {
    for (const [label, e] of Object.entries(s.byLabel)) {
      const into = (endpoints[label] ??= { latencies: [], ok: 0, expected: 0, errors: 0, statuses: {} });
      for (const v of e.latencies) into.latencies.push(v);
      into.ok += e.ok;
      into.expected += e.expected;
      into.errors += e.errors;
      for (const [k, c] of Object.entries(e.statuses)) into.statuses[k] = (into.statuses[k] || 0) + c;
    }
  }
  const byEndpoint = {};
  for (const [label, e] of Object.entries(endpoints)) {
    requests += e.latencies.length;
    errors += e.errors;
    byEndpoint[label] = {
      count: e.latencies.length,
      per_second: Math.round(e.latencies.length / seconds),
      ...percentiles(e.latencies),
      expected_409: e.expected,
      errors: e.errors,
      statuses: e.statuses,
    };
  }
  const booked = Object.assign({}, ...stats.map((s) => s.bookings));
  // Judged from the booking request (what the passenger waits for a driver to hear of it), also
  // given from its response as the fan-out scenario does (negative: the event beat the response).
  const latencies = [];
  const afterResponse = [];
  for (const s of stats) {
    for (const [rideId, times] of Object.entries(s.arrivals)) {
      if (!booked[rideId]) continue;
      for (const at of times) {
        latencies.push(at - booked[rideId][0]);
        afterResponse.push(at - booked[rideId][1]);
      }
    }
  }
  return {
    seconds: Math.round(seconds * 10) / 10,
    endpoints: byEndpoint,
    ride_requested: { deliveries: latencies.length, rides: Object.keys(booked).length, ...percentiles(latencies), after_response: percentiles(afterResponse) },
    requests,
    errors,
    unexpected_socket_closes: stats.reduce((s, x) => s + x.unexpectedCloses, 0),
    service_cpu_percent: Math.round(serviceCpuMs / seconds / 10),
    service_cpu_us_per_request: requests ? Math.round((serviceCpuMs * 1000) / requests) : null,
    clients_cpu_percent: Math.round(stats.reduce((s, x) => s + x.cpuMs, 0) / seconds / 10),
    clients_cpu_us_per_request: requests ? Math.round((stats.reduce((s, x) => s + x.cpuMs, 0) * 1000) / requests) : null,
  };
}

/** Pool wait and event loop per instance, for the step's log line. */
function stepWaits(row) {
  return (row.event_loop || [])
    .map((w, i) =>
      w
        ? `instance ${i + 1}: pool wait mean ${w.pool_wait_mean_ms ?? '–'} ms, event loop p99 ${w.p99_ms} / max ${w.max_ms} ms`
        : `instance ${i + 1}: no /metrics`,
    )
    .join('; ');
}

function judgeStep(row) {
  const reasons = [];
  for (const [label, e] of Object.entries(row.endpoints || {}))
    if (e.p99 > (isRideWrite(label) ? RIDE_WRITE_P99_MS : ENDPOINT_P99_MS)) reasons.push(`${label} p99 ${e.p99} ms`);
  if (row.ride_requested && row.ride_requested.p99 > RIDE_REQUESTED_P99_MS) reasons.push(`ride_requested p99 ${row.ride_requested.p99} ms`);
  const broken = [];
  if (row.errors) broken.push(`${row.errors} errors`);
  if (row.sockets_failed) broken.push(`${row.sockets_failed} sockets failed to open`);
  if (row.unexpected_socket_closes) broken.push(`${row.unexpected_socket_closes} sockets closed`);
  if (row.ride_requested && row.ride_requested.rides && !row.ride_requested.deliveries) broken.push('no ride_requested delivered');
  row.held = reasons.length === 0 && broken.length === 0;
  row.why_not = [...reasons, ...broken].join('; ') || undefined;
  row.broken = broken.join('; ') || undefined;
}

/** Both modes, step by step; the row for run.js and the steps for the report. */
async function cityCapacity(ctx, { quick, log }) {
  const timing = quick ? QUICK : FULL;
  const steps = process.env.BENCH_CAPACITY_STEPS ? process.env.BENCH_CAPACITY_STEPS.split(',').map(Number) : timing.steps;
  const modes = (process.env.BENCH_CAPACITY_MODES || '1,2').split(',').map(Number);
  const result = { name: 'city capacity', modes: {} };
  // The step's D drivers are the only ones online: the city's other seeded drivers would be loaded and
  // reconciled by every instance's matcher. run.js's own service is not part of any step, but its
  // matcher reconciles every online driver every 15 s (about a second of CPU at 20,000 on a busy
  // machine, on the cores the step measures): it is paused (SIGSTOP) while the steps run.
  const others = (await ctx.db.query('UPDATE drivers SET is_online = false WHERE is_online RETURNING user_id')).rows.map((r) => r.user_id);
  const paused = ctx.servicePid ? ctx.servicePid() : undefined;
  if (paused) process.kill(paused, 'SIGSTOP');
  try {
    await capacityModes(ctx, { quick, log, timing, steps, modes, result });
  } finally {
    if (paused) process.kill(paused, 'SIGCONT');
    await ctx.db.query('UPDATE drivers SET is_online = true WHERE user_id = ANY($1::int[])', [others]);
  }
  result.note = Object.entries(result.modes)
    .map(([n, m]) => (m.skipped ? `${n} instance(s): skipped (${m.skipped})` : `${n} instance(s): held ${m.largest_held.toLocaleString('en-US')} drivers`))
    .join('; ');
  // A slow step is the figure, not a failure; only a broken bench (errors, sockets) fails a quick run.
  if (!quick) delete result.failure;
  return result;
}

async function capacityModes(ctx, { quick, log, timing, steps, modes, result }) {
  for (const instances of modes) {
    const redis = instances > 1 ? await redisFor(quick) : undefined;
    if (instances > 1 && !redis) {
      result.modes[instances] = { skipped: 'no REDIS_URL and no redis-server on PATH' };
      continue;
    }
    const rows = [];
    try {
      for (const D of steps) {
        log(`  capacity: ${D} drivers on ${instances} instance(s)${redis ? ' over Redis' : ''}…`);
        const row = await runStep(ctx, { drivers: D, instances, redisUrl: redis && redis.url, timing });
        rows.push(row);
        if (row.skipped) {
          log(`    skipped: ${row.skipped}`);
          break;
        }
        const p99s = Object.entries(row.endpoints)
          .map(([k, e]) => `${k.split(' ')[1]} ${e.p99}`)
          .join(', ');
        log(
          `    ${row.held ? 'held' : `not held (${row.why_not})`}: p99 ms ${p99s}; ride_requested p99 ${row.ride_requested.p99} ms; load ${row.load_average.toFixed(1)}`,
        );
        log(
          `    CPU (% of a core): service ${row.service_cpu_percent} (${row.service_cpu_us_per_request} µs/request), database ${row.database_cpu_percent}, load generators ${row.clients_cpu_percent} (${row.clients_cpu_us_per_request} µs/request); ${row.requests} requests in ${row.seconds} s; ${stepWaits(row)}`,
        );
        for (const [i, sql] of (row.sql || []).entries()) {
          if (!sql) continue;
          log(
            `    SQL, instance ${i + 1}: ${sql.statements_per_second} statements/s (${sql.statements_per_request} a request), ${sql.connections_held_mean} connections held on average (${Math.round(sql.held_idle_share * 100)} % of it between statements); by total time (bench/results/latest.json has more):`,
          );
          for (const x of sql.top_statements.slice(0, 6)) log(`      ${x.per_second}/s, mean ${x.mean_ms} ms: ${x.text.slice(0, 110)}`);
          log('    pool checkouts by total hold (round trips each, mean hold):');
          for (const x of sql.top_checkouts.slice(0, 5))
            log(`      ${x.per_second}/s, ${x.round_trips} round trips, held ${x.hold_mean_ms} ms: ${x.text.slice(0, 100)}`);
        }
        if (row.database_backends)
          log(
            `    PostgreSQL backends of the service, mean over ${row.database_backends.samples} samples: ${JSON.stringify(row.database_backends.backends_by_state)}`,
          );
        if (row.broken) result.failure = `${D} drivers, ${instances} instance(s): ${row.broken}`;
        // BENCH_CAPACITY_ALL=1 runs every step (the whole curve), else the first that fails ends the mode.
        if (!row.held && timing.stopAtFailure && process.env.BENCH_CAPACITY_ALL !== '1') break;
      }
    } finally {
      if (redis) await redis.stop();
    }
    const held = rows.filter((r) => r.held).map((r) => r.drivers);
    result.modes[instances] = { steps: rows, largest_held: held.length ? Math.max(...held) : 0 };
  }
}

module.exports = { cityCapacity };
