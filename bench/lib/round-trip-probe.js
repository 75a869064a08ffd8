'use strict';
/**
 * Counts the statements the service sends PostgreSQL on behalf of one piece of work: every
 * pg Client query issued in `work`'s async context (AsyncLocalStorage follows it through the
 * pool, TypeORM and the event bus). Statements are sent one after the other on a connection and
 * the pg driver does not pipeline, so each is one round trip; BEGIN and COMMIT are statements too.
 * Work that other requests or timers start (sweeps, flushes) runs outside the context and is not
 * counted. Requiring this module patches the pg package loaded beside it, once.
 */
const { AsyncLocalStorage } = require('node:async_hooks');
const pg = require('pg');

const context = new AsyncLocalStorage();
const originalQuery = pg.Client.prototype.query;

function textOf(config) {
  const text = typeof config === 'string' ? config : config && config.text;
  return String(text).replace(/\s+/g, ' ').trim();
}

pg.Client.prototype.query = function countedQuery(config, values, callback) {
  const store = context.getStore();
  if (store && !store.closed) store.statements.push(textOf(config));
  return originalQuery.call(this, config, values, callback);
};

/** Runs `work` and returns its result with the statements it sent (in order), until it settled. */
async function countRoundTrips(work) {
  const store = { statements: [], closed: false };
  try {
    const result = await context.run(store, work);
    return { result, statements: store.statements };
  } finally {
    // Statements its published events start later (listeners) are not the command's.
    store.closed = true;
  }
}

module.exports = { countRoundTrips };
