'use strict';
/**
 * node bench/step-function.js (after npm run build): one command, `arrive`, as the data-modifying CTE
 * the engine derives from the transition table (RideStepsRepository.step) against the same work as a
 * plpgsql function (lock, judge, status and stamp, ride_events row, the view as JSON), both one round
 * trip through TypeORM, and the CTE again as a named prepared statement (planned once, as plpgsql
 * plans its statements), taken in turn on one accepted ride that is put back between calls (untimed).
 * Prints each one's client-side latency (p50, p99, mean) and the CPU per call of the database's
 * PostgreSQL backends (/proc, 10 ms ticks: meaningful over hundreds of calls).
 * The function is created in the throwaway database only: this compares, it installs nothing.
 */
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { ROOT, bootBuiltApp } = require('./lib/built-app');
const { driverOnline, injectApi, signUp } = require('./lib/bench-users');
const { countRoundTrips } = require('./lib/round-trip-probe');
const { cpuMs } = require('./lib/stats');

const CALLS = Number(process.env.BENCH_CALLS || 400);
const PICKUP = { address: '1 Market St', latitude: 37.7936, longitude: -122.3958 };
const RIDE = {
  pickup: PICKUP,
  dropoff: { address: '2 Castro St', latitude: 37.76, longitude: -122.43 },
  ride_type: 'one_way',
  vehicle_category_id: 1,
  payment_method: 'cash',
};

function functionSql(viewColumns, viewJoins) {
  return `CREATE FUNCTION bench_arrive(p_ride uuid, p_actor int) RETURNS json LANGUAGE plpgsql AS $$
    DECLARE l rides%ROWTYPE; v json;
    BEGIN
      SELECT * INTO l FROM rides WHERE id = p_ride FOR UPDATE;
      IF NOT FOUND OR l.driver_id IS DISTINCT FROM p_actor OR l.status <> 'accepted' THEN RETURN NULL; END IF;
      UPDATE rides SET status = 'driver_arrived', updated_at = now(), arrived_at = now() WHERE id = p_ride;
      INSERT INTO ride_events (ride_id, from_status, to_status, actor_user_id, actor_role) VALUES (p_ride, l.status, 'driver_arrived', p_actor, 'driver');
      SELECT row_to_json(x) INTO v FROM (SELECT ${viewColumns} FROM rides r ${viewJoins} WHERE r.id = p_ride) x;
      RETURN v;
    END $$`;
}

/** A backend's CPU so far (ms), NaN when its process is not visible here (PostgreSQL on another host or in a container). */
const backendCpuMs = (pid) => cpuMs(pid) ?? NaN;

async function main() {
  const { app, database, close } = await bootBuiltApp('rh_step_function');
  try {
    const { RideStepsRepository } = require(join(ROOT, 'dist/src/modules/rides/transitions/ride-steps.repository'));
    const { RIDE_VIEW_COLUMNS, RIDE_VIEW_JOINS } = require(join(ROOT, 'dist/src/modules/rides/read-models/ride-view'));
    const api = injectApi(app);
    const passenger = await signUp(api, 'passenger');
    const driver = await signUp(api, 'driver');
    await driverOnline(api, driver.accessToken, { plate: 'SB1' });
    const ride = await api('POST', '/api/v1/rides/book', { token: passenger.accessToken, body: RIDE });
    const bid = await api('POST', `/api/v1/driver/rides/${ride.id}/bid`, { token: driver.accessToken, body: { amount: 12, eta_minutes: 3 } });
    await api('POST', `/api/v1/rides/${ride.id}/bids/${bid.id}/accept`, { token: passenger.accessToken });

    const db = app.get(require('typeorm').DataSource);
    const steps = app.get(RideStepsRepository);
    await db.query(functionSql(RIDE_VIEW_COLUMNS, RIDE_VIEW_JOINS));
    // Every backend of this database (the pool's connections), whose CPU is read from /proc.
    const pids = (await database.admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database.name])).rows.map((r) => r.pid);
    const cpuNow = () =>
      pids
        .map(backendCpuMs)
        .filter(Number.isFinite)
        .reduce((sum, ms) => sum + ms, 0);
    const reset = () => db.query(`UPDATE rides SET status = 'accepted', arrived_at = NULL WHERE id = $1`, [ride.id]);
    // The CTE's text as the engine sends it, for a third form: the same statement prepared once (a named statement).
    await reset();
    const { statements } = await countRoundTrips(() => steps.step('arrive', ride.id, { id: driver.id }, { set: {}, reason: null }));
    const pool = db.driver.master;
    const forms = {
      'cte, prepared': async () => {
        const res = await pool.query({ name: 'bench-arrive-cte', text: statements[0], values: [ride.id, driver.id, 'driver_arrived', null] });
        if (!res.rows[0].changed) throw new Error('prepared cte refused');
      },
      'engine (step)': async () => {
        const done = await steps.step('arrive', ride.id, { id: driver.id }, { set: {}, reason: null });
        if (!done.view) throw new Error('engine step refused');
      },
      function: async () => {
        const [row] = await db.query('SELECT bench_arrive($1, $2) AS v', [ride.id, driver.id]);
        if (!row.v) throw new Error('function refused');
      },
    };
    const names = Object.keys(forms);
    const results = Object.fromEntries(names.map((n) => [n, { ms: [], cpu: 0 }]));
    for (let i = 0; i < CALLS * names.length; i += 1) {
      const form = names[i % names.length];
      await reset();
      const cpu = cpuNow();
      const started = performance.now();
      await forms[form]();
      results[form].ms.push(performance.now() - started);
      results[form].cpu += cpuNow() - cpu;
    }
    for (const [form, r] of Object.entries(results)) {
      // The first calls plan and warm caches up.
      const ms = r.ms.slice(20).sort((a, b) => a - b);
      const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(3);
      const mean = (ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(3);
      process.stdout.write(
        `${form.padEnd(14)} p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  mean ${mean} ms  backend CPU ${(r.cpu / CALLS).toFixed(3)} ms/call (${CALLS} calls)\n`,
      );
    }
  } finally {
    await close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
