'use strict';
/**
 * Preloaded into a capacity instance (`node -r`) when BENCH_CAPACITY_SQL=1: what the service asks of
 * PostgreSQL, counted in the service process itself (pg_stat_statements needs a restart of the
 * machine's shared PostgreSQL with shared_preload_libraries, which the bench must not do).
 * - per statement shape: calls, total and max ms from send to result (PostgreSQL's CPU, its queue for
 *   the 2 cores, the round trip);
 * - per pool checkout, keyed by the shapes it ran in order (a transaction's signature): how long the
 *   connection was held, and how much of that no statement was running (the service awaiting something
 *   else, or its event loop busy, while the connection and any row locks are held).
 * On SIGUSR2 the totals so far are written to $BENCH_SQL_PROBE_DIR/<pid>.json (seq counts the dumps);
 * the bench diffs two dumps around the measured window. Bench-only: never loaded by the service itself.
 */
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const pg = require('pg');

const statements = new Map(); // shape → { calls, ms, max }
const checkouts = new Map(); // signature → { count, hold_ms, query_ms, max_hold_ms }
let seq = 0;

function shape(text) {
  const s = String(text).replace(/\s+/g, ' ').trim();
  // Inline lists (IN (1, 2, ...)) and literals would make every call a shape of its own.
  const t = s.replace(/\$\d+/g, '$').replace(/\b\d+\b/g, 'N');
  // Long column lists: the head and the WHERE clause at the tail tell statements apart.
  return t.length <= 240 ? t : `${t.slice(0, 110)} … ${t.slice(-120)}`;
}

function note(text, ms) {
  const e = statements.get(text) ?? { calls: 0, ms: 0, max: 0 };
  if (e.calls === 0) statements.set(text, e);
  e.calls += 1;
  e.ms += ms;
  if (ms > e.max) e.max = ms;
}

const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function probedQuery(config, values, callback) {
  if (config && typeof config.submit === 'function') {
    // A cursor (the open-requests load): counted, not timed (its rows arrive over many reads).
    note(shape(`cursor: ${config.text}`), 0);
    return originalQuery.call(this, config, values, callback);
  }
  const text = shape(typeof config === 'string' ? config : config && config.text);
  const started = performance.now();
  const checkout = this.__probeCheckout;
  const done = () => {
    const ms = performance.now() - started;
    note(text, ms);
    if (checkout) {
      checkout.queryMs += ms;
      checkout.statements += 1;
      if (checkout.shapes.length < 8) checkout.shapes.push(text.slice(0, 90));
    }
  };
  const cb = typeof values === 'function' ? values : callback;
  if (typeof cb === 'function') {
    const wrapped = (err, res) => {
      done();
      cb(err, res);
    };
    return typeof values === 'function' ? originalQuery.call(this, config, wrapped) : originalQuery.call(this, config, values, wrapped);
  }
  const result = originalQuery.call(this, config, values);
  if (result && typeof result.then === 'function') result.then(done, done);
  return result;
};

const originalConnect = pg.Pool.prototype.connect;
pg.Pool.prototype.connect = function probedConnect(callback) {
  if (typeof callback !== 'function') return originalConnect.call(this, callback);
  return originalConnect.call(this, (err, client, release) => {
    if (err || !client) return callback(err, client, release);
    const checkout = { at: performance.now(), queryMs: 0, statements: 0, shapes: [] };
    client.__probeCheckout = checkout;
    callback(err, client, (releaseErr) => {
      client.__probeCheckout = undefined;
      const signature = checkout.shapes.join(' ▸ ') || '(no statement)';
      const hold = performance.now() - checkout.at;
      const e = checkouts.get(signature) ?? { count: 0, hold_ms: 0, query_ms: 0, statements: 0, max_hold_ms: 0 };
      if (e.count === 0) checkouts.set(signature, e);
      e.count += 1;
      e.hold_ms += hold;
      e.query_ms += checkout.queryMs;
      e.statements += checkout.statements;
      if (hold > e.max_hold_ms) e.max_hold_ms = hold;
      return release(releaseErr);
    });
  });
};

process.on('SIGUSR2', () => {
  seq += 1;
  const dir = process.env.BENCH_SQL_PROBE_DIR || '/tmp';
  const body = { seq, statements: Object.fromEntries(statements), checkouts: Object.fromEntries(checkouts) };
  writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(body));
});
