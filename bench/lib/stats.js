'use strict';

/** p50/p99/max of a list of milliseconds (nearest rank), rounded to 0.1 ms. */
function percentiles(values) {
  if (values.length === 0) return { p50: null, p99: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const round = (v) => Math.round(v * 10) / 10;
  return { p50: round(at(50)), p99: round(at(99)), max: round(sorted[sorted.length - 1]) };
}

/** Resident memory of a process in MB (VmRSS in /proc/<pid>/status); undefined off Linux. */
function rssMb(pid) {
  try {
    const status = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)[1]);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) of a process in ms, from /proc/<pid>/stat (10 ms ticks); undefined off Linux. */
function cpuMs(pid) {
  try {
    const stat = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** autocannon as a promise of its result. */
function cannon(options) {
  const autocannon = require('autocannon');
  return new Promise((resolve, reject) => autocannon(options, (err, result) => (err ? reject(err) : resolve(result))));
}

/** measureLoad's settings from BENCH_DURATION, BENCH_WARMUP (s) and BENCH_CONNECTIONS, else the script's defaults. */
function loadFromEnv(defaults) {
  const env = (name, fallback) => Number(process.env[name] || fallback);
  return {
    duration: env('BENCH_DURATION', defaults.duration),
    warmup: env('BENCH_WARMUP', defaults.warmup),
    connections: env('BENCH_CONNECTIONS', defaults.connections),
  };
}

/**
 * GET load on `url` (autocannon `requests`): `warmup` s, then `duration` s measured, with the CPU of
 * process `pid` over that window (cpuUs: µs per request; undefined without a pid).
 */
async function measureLoad(url, requests, pid, { connections, warmup, duration }) {
  const options = { url, connections, pipelining: 1, requests };
  await cannon({ ...options, duration: warmup });
  const before = pid ? cpuMs(pid) : undefined;
  const r = await cannon({ ...options, duration });
  const codes = Object.entries(r.statusCodeStats || {})
    .map(([code, { count }]) => `${code}×${count}`)
    .join(' ');
  return {
    rps: Math.round(r.requests.average),
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    not_modified: (r.statusCodeStats && r.statusCodeStats['304'] && r.statusCodeStats['304'].count) || 0,
    errors: r.errors,
    codes,
    cpuUs: pid ? ((cpuMs(pid) - before) * 1000) / r.requests.total : undefined,
  };
}

module.exports = { percentiles, rssMb, cpuMs, mapLimit, cannon, loadFromEnv, measureLoad };
