'use strict';
/**
 * The everyday hot paths of `npm run bench`: what each needs, created through the public API, the
 * scenarios themselves, and one measurement (autocannon after a warm-up, with the service's and the
 * database's CPU per request).
 */
const { JSON_HEADERS, httpApi, driverOnline, signUp: signUpAs } = require('./bench-users');
const { cannon } = require('./stats');

/** { connections, warmup, duration } in seconds; otp: the development code the service accepts. */
function createHotPaths({ connections, warmup, duration, otp }) {
  const CONNECTIONS = connections;
  const WARMUP = warmup;
  const DURATION = duration;
  const OTP = otp;
  const signUp = (call, role) => signUpAs(call, role, OTP);

  const PICKUP = { address: '1 Market St', latitude: 37.7936, longitude: -122.3958 };
  const DROPOFF = { address: '500 Castro St', latitude: 37.7609, longitude: -122.435 };
  const RIDE_FIELDS = { pickup: PICKUP, dropoff: DROPOFF, ride_type: 'one_way', vehicle_category_id: 1, passenger_count: 1, children: 0 };

  /**
   * What each scenario needs, created through the public API. A step that fails (an endpoint not
   * built yet) leaves its scenarios without what they need; they are skipped with the reason.
   * refreshUsers: how many users the refresh scenario's pool signs up.
   */
  async function prepare(call, { refreshUsers = CONNECTIONS * 2 + 4 } = {}) {
    const state = { notes: {} };
    const attempt = async (label, fn) => {
      try {
        return await fn();
      } catch (err) {
        state.notes[label] = err.message;
        return undefined;
      }
    };
    state.passenger = await attempt('passenger', () => signUp(call, 'passenger'));
    state.driver = await attempt('driver', () => signUp(call, 'driver'));
    if (state.driver) {
      await attempt('driver setup', () => driverOnline(call, state.driver.accessToken, { near: PICKUP }));
    }
    if (state.passenger) {
      state.ride = await attempt('booking', () =>
        call('POST', '/api/v1/rides/book', { token: state.passenger.accessToken, body: { ...RIDE_FIELDS, payment_method: 'cash' } }),
      );
    }
    // Each refresh replaces the user's token, so every connection needs tokens of its own: a pool
    // of users, each token returned to the pool with its successor.
    state.refreshPool = [];
    for (let i = 0; i < refreshUsers && !state.notes.refresh; i++) {
      const user = await attempt('refresh', () => signUp(call, 'passenger'));
      if (user) state.refreshPool.push(user.refreshToken);
    }
    return state;
  }

  function scenarios(state) {
    const bearer = (user) => (user ? { authorization: `Bearer ${user.accessToken}` } : undefined);
    const needs = (value, label) => (value ? undefined : `setup failed: ${state.notes[label] || label}`);
    return [
      { name: 'GET /health/live', method: 'GET', path: '/health/live' },
      { name: 'GET /api/v1/rides/categories', method: 'GET', path: '/api/v1/rides/categories' },
      {
        name: 'POST /api/v1/auth/refresh-token',
        skip: state.refreshPool.length >= CONNECTIONS ? undefined : `setup failed: ${state.notes.refresh || 'no users'}`,
        method: 'POST',
        path: '/api/v1/auth/refresh-token',
        rotating: state.refreshPool,
      },
      {
        name: 'POST /api/v1/rides/estimate',
        skip: needs(state.passenger, 'passenger'),
        method: 'POST',
        path: '/api/v1/rides/estimate',
        headers: { ...JSON_HEADERS, ...bearer(state.passenger) },
        body: JSON.stringify(RIDE_FIELDS),
      },
      {
        name: 'GET /api/v1/rides/{id}',
        skip: needs(state.ride, 'booking'),
        method: 'GET',
        path: state.ride ? `/api/v1/rides/${state.ride.id}` : '',
        headers: bearer(state.passenger),
      },
      {
        name: 'GET /api/v1/driver/rides/nearby',
        skip: needs(state.driver && !state.notes['driver setup'] && state.ride, state.notes['driver setup'] ? 'driver setup' : 'booking'),
        method: 'GET',
        path: `/api/v1/driver/rides/nearby?latitude=${PICKUP.latitude}&longitude=${PICKUP.longitude}&radius_km=5`,
        headers: bearer(state.driver),
      },
      {
        name: 'PUT /api/v1/driver/location',
        skip: needs(state.driver && !state.notes['driver setup'], 'driver setup'),
        method: 'PUT',
        path: '/api/v1/driver/location',
        headers: { ...JSON_HEADERS, ...bearer(state.driver) },
        body: JSON.stringify({ latitude: PICKUP.latitude + 0.003, longitude: PICKUP.longitude + 0.001, heading: 90, speed: 8.5 }),
      },
    ];
  }

  function cannonOptions(base, scenario, duration) {
    const options = { url: `${base}${scenario.path || ''}`, connections: CONNECTIONS, pipelining: 1, duration, method: scenario.method };
    if (scenario.requests) {
      options.requests = scenario.requests;
    } else if (scenario.rotating) {
      const pool = scenario.rotating;
      options.requests = [
        {
          method: 'POST',
          headers: JSON_HEADERS,
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ refresh_token: pool.shift() || 'pool-exhausted' }) }),
          onResponse: (status, body) => {
            if (status === 200) pool.push(JSON.parse(body).refresh_token);
          },
        },
      ];
    } else {
      if (scenario.headers) options.headers = scenario.headers;
      if (scenario.body) options.body = scenario.body;
    }
    return options;
  }

  /** Clock ticks (1/100 s) a process has used, user + system; undefined off Linux. */
  function cpuTicks(pid) {
    try {
      const stat = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return undefined;
    }
  }

  /**
   * CPU used by the service and by the database backends serving it (the machine PostgreSQL, same
   * host), per process: on a machine shared with other work, CPU per request is the figure that
   * other load disturbs least, so each scenario reports it beside its throughput.
   */
  async function cpuSnapshot(servicePid, db, databaseName) {
    const snapshot = { service: cpuTicks(servicePid), backends: new Map() };
    if (db) {
      const { rows } = await db.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [databaseName]);
      for (const { pid } of rows) snapshot.backends.set(pid, cpuTicks(pid));
    }
    return snapshot;
  }

  function cpuPerRequest(before, after, requests) {
    if (!before || !after || !requests || before.service === undefined) return undefined;
    let dbTicks = 0;
    for (const [pid, ticks] of after.backends) if (ticks !== undefined) dbTicks += ticks - (before.backends.get(pid) ?? 0);
    const us = (ticks) => Math.round((ticks * 10_000) / requests);
    return { service_us: us(after.service - before.service), db_us: us(dbTicks) };
  }

  async function measure(base, scenario, cpu) {
    await cannon(cannonOptions(base, scenario, WARMUP));
    const before = cpu ? await cpu() : undefined;
    const r = await cannon(cannonOptions(base, scenario, DURATION));
    const after = cpu ? await cpu() : undefined;
    return {
      cpu_per_request: cpuPerRequest(before, after, r.requests.total),
      requests_per_second: Math.round(r.requests.average),
      latency_ms: { p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.mean },
      total: r.requests.total,
      non_2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
    };
  }

  /** One request first: a missing endpoint (404) is skipped, any other failure is reported. */
  async function probe(base, scenario) {
    if (scenario.rotating || scenario.requests) return undefined;
    const res = await fetch(`${base}${scenario.path}`, { method: scenario.method, headers: scenario.headers, body: scenario.body });
    if (res.status === 404) return 'endpoint not found (not built yet)';
    if (!res.ok) return `probe answered ${res.status}: ${(await res.text()).slice(0, 200)}`;
    return undefined;
  }

  function table(rows) {
    const header = ['scenario', 'req/s', 'ceiling req/s', 'x ceiling', 'p50 ms', 'p99 ms', 'non-2xx', 'svc µs/req', 'db µs/req', 'note'];
    const lines = rows.map((r) => [
      r.name,
      r.requests_per_second === undefined ? '-' : String(r.requests_per_second),
      r.baseline_requests_per_second === undefined ? '-' : String(r.baseline_requests_per_second),
      r.ratio === undefined ? '-' : r.ratio.toFixed(2),
      r.latency_ms ? String(r.latency_ms.p50) : '-',
      r.latency_ms ? String(r.latency_ms.p99) : '-',
      r.non_2xx === undefined ? '-' : String(r.non_2xx + (r.errors || 0)),
      r.cpu_per_request ? String(r.cpu_per_request.service_us) : '-',
      r.cpu_per_request ? String(r.cpu_per_request.db_us) : '-',
      r.note || '',
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
    const last = header.length - 1;
    const format = (cells) => cells.map((c, i) => (i === 0 || i === last ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
  }

  return { api: httpApi, signUp, prepare, scenarios, measure, probe, table, cpuSnapshot };
}

module.exports = { createHotPaths, JSON_HEADERS };
