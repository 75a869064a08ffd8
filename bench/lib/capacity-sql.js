'use strict';
// The bench's side of capacity-sql-probe.js: preload it into an instance, take a dump before and
// after the measured window, and give what PostgreSQL was asked in between (per second, per request).
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const PROBE = join(__dirname, 'capacity-sql-probe.js');

/** Extra environment for an instance, and a dump function; undefined unless BENCH_CAPACITY_SQL=1. */
function sqlProbe() {
  if (process.env.BENCH_CAPACITY_SQL !== '1') return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'capacity-sql-'));
  const env = { NODE_OPTIONS: `${process.env.NODE_OPTIONS || ''} --require ${PROBE}`.trim(), BENCH_SQL_PROBE_DIR: dir };
  const read = (pid) => {
    try {
      return JSON.parse(readFileSync(join(dir, `${pid}.json`), 'utf8'));
    } catch {
      return undefined;
    }
  };
  const dump = async (pid) => {
    const seq = (read(pid) || { seq: 0 }).seq;
    try {
      process.kill(pid, 'SIGUSR2');
    } catch {
      return undefined; // the instance is gone: the step says so
    }
    for (let i = 0; i < 100; i += 1) {
      const d = read(pid);
      if (d && d.seq > seq) return d;
      await new Promise((r) => setTimeout(r, 20));
    }
    return undefined;
  };
  return { env, dump, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const round = (x) => Math.round(x * 100) / 100;

/** The window between two dumps: statements and checkouts by total time, rates per second and per request. */
function sqlWindow(before, after, seconds, requests, top = 12) {
  if (!before || !after) return undefined;
  const diff = (a, b, keys) => {
    const out = [];
    for (const [k, v] of Object.entries(a)) {
      const w = b[k] || {};
      const d = Object.fromEntries(keys.map((key) => [key, v[key] - (w[key] || 0)]));
      if (d[keys[0]] > 0) out.push({ text: k, ...d, max: v.max ?? v.max_hold_ms });
    }
    return out;
  };
  const statements = diff(after.statements, before.statements, ['calls', 'ms']);
  const checkouts = diff(after.checkouts, before.checkouts, ['count', 'hold_ms', 'query_ms', 'statements']);
  const calls = statements.reduce((s, x) => s + x.calls, 0);
  const holdMs = checkouts.reduce((s, x) => s + x.hold_ms, 0);
  const queryMs = checkouts.reduce((s, x) => s + x.query_ms, 0);
  return {
    statements_per_second: round(calls / seconds),
    statements_per_request: requests ? round(calls / requests) : null,
    // Mean connections held at once (Little's law), and the share of that with no statement running.
    connections_held_mean: round(holdMs / 1000 / seconds),
    held_idle_share: holdMs ? round(1 - queryMs / holdMs) : null,
    top_statements: statements
      .sort((x, y) => y.ms - x.ms)
      .slice(0, top)
      .map((s) => ({ per_second: round(s.calls / seconds), mean_ms: round(s.ms / s.calls), max_ms: round(s.max), text: s.text })),
    top_checkouts: checkouts
      .sort((x, y) => y.hold_ms - x.hold_ms)
      .slice(0, top)
      .map((c) => ({
        per_second: round(c.count / seconds),
        round_trips: round((c.statements || 0) / c.count),
        hold_mean_ms: round(c.hold_ms / c.count),
        idle_mean_ms: round((c.hold_ms - c.query_ms) / c.count),
        max_hold_ms: round(c.max),
        text: c.text,
      })),
  };
}

/**
 * PostgreSQL's side of the same window: the service's backends (application_name ride-hailing) sampled
 * every `everyMs` from pg_stat_activity, as the mean number of backends in each state. 'active' with no
 * wait event is running or queued for a core; 'idle in transaction' is waiting for the service's next
 * statement (the service's event loop, or an await between statements); Lock is a row-lock wait.
 */
function activitySampler(db, everyMs = 25) {
  const counts = new Map();
  let samples = 0;
  let stopped = false;
  const sample = async () => {
    while (!stopped) {
      const { rows } = await db.query(
        `SELECT state, wait_event_type, wait_event FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'ride-hailing' AND pid <> pg_backend_pid()`,
      );
      samples += 1;
      for (const r of rows) {
        const key = `${r.state}${r.wait_event_type ? ` (${r.wait_event_type}: ${r.wait_event})` : ''}`;
        counts.set(key, (counts.get(key) || 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  };
  const loop = sample().catch(() => undefined); // a failed sample ends the sampling, not the bench
  return async () => {
    stopped = true;
    await loop;
    const mean = [...counts].map(([state, n]) => [state, round(n / samples)]).sort((a, b) => b[1] - a[1]);
    return { samples, backends_by_state: Object.fromEntries(mean) };
  };
}

module.exports = { sqlProbe, sqlWindow, activitySampler };
