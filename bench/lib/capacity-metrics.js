'use strict';
// What the capacity scenario reads beside the clients' latencies: each instance's /metrics (event-loop
// lag, server time per route, pool wait), the database backends' CPU, and the kernel's listen overflows.
const { cpuMs } = require('./stats');

/** An instance's /metrics: event-loop lag (prom-client resets it at each scrape), HTTP and pool-wait histograms. */
async function scrape(base) {
  try {
    const text = await (await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer capacity-metrics' } })).text();
    const read = (name) => {
      const m = new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text);
      return m ? Number(m[1]) : undefined;
    };
    const routes = {};
    for (const m of text.matchAll(/^http_request_duration_seconds_(sum|count|bucket)\{([^}]*)\} ([0-9.e+-]+)/gm)) {
      const label = (name) => (new RegExp(`${name}="([^"]*)"`).exec(m[2]) || [])[1];
      const r = (routes[`${label('method')} ${label('route')}`] ??= { sum: 0, count: 0, buckets: {} });
      if (m[1] === 'bucket') r.buckets[label('le')] = (r.buckets[label('le')] || 0) + Number(m[3]);
      else r[m[1]] += Number(m[3]);
    }
    return {
      lagP99: read('nodejs_eventloop_lag_p99_seconds'),
      lagMax: read('nodejs_eventloop_lag_max_seconds'),
      poolSum: read('db_pool_wait_seconds_sum'),
      poolCount: read('db_pool_wait_seconds_count'),
      routes,
    };
  } catch {
    return undefined;
  }
}

/**
 * The window between two scrapes: server-side time per route (mean, and the histogram bucket holding
 * the p99: set against the client's p99 it tells the service's own delay from the machine's), the
 * mean wait for a pool connection, and the event-loop lag over the window.
 */
function serverWindow(before, after) {
  if (!before || !after) return undefined;
  const ms = (seconds) => Math.round(seconds * 10_000) / 10;
  const routes = {};
  for (const [key, r] of Object.entries(after.routes)) {
    const b = before.routes[key] || { sum: 0, count: 0, buckets: {} };
    const count = r.count - b.count;
    if (count <= 0) continue;
    const bounds = Object.keys(r.buckets)
      .filter((le) => le !== '+Inf')
      .map(Number)
      .sort((x, y) => x - y);
    const p99 = bounds.find((le) => r.buckets[String(le)] - (b.buckets[String(le)] || 0) >= 0.99 * count);
    routes[key] = { count, mean_ms: ms((r.sum - b.sum) / count), p99_at_most_ms: p99 === undefined ? null : ms(p99) };
  }
  const poolCount = (after.poolCount || 0) - (before.poolCount || 0);
  return {
    p99_ms: after.lagP99 === undefined ? undefined : ms(after.lagP99),
    max_ms: after.lagMax === undefined ? undefined : ms(after.lagMax),
    pool_wait_mean_ms: poolCount > 0 ? ms(((after.poolSum || 0) - (before.poolSum || 0)) / poolCount) : undefined,
    routes,
  };
}

/** SYNs the kernel dropped because an accept queue was full (machine-wide: other work counts too). */
function listenOverflows() {
  try {
    const lines = require('node:fs').readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const i = lines.findIndex((l) => l.startsWith('TcpExt:'));
    const names = lines[i].split(' ');
    return Number(lines[i + 1].split(' ')[names.indexOf('ListenOverflows')]);
  } catch {
    return undefined;
  }
}

/** CPU (ms) of the PostgreSQL backends serving the bench's database (same host: /proc). */
async function databaseCpuMs(db) {
  const { rows } = await db.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  return new Map(rows.map(({ pid }) => [pid, cpuMs(pid)]));
}

module.exports = { scrape, serverWindow, listenOverflows, databaseCpuMs };
