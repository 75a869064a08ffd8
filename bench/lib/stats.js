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

module.exports = { percentiles, rssMb, cpuMs, mapLimit };
