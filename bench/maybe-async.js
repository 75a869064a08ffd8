'use strict';
/**
 * node bench/maybe-async.js (after `npm run build`): what answering without a promise saves on a hot
 * route (src/common/async/maybe-async.ts). The single-category estimate's shape — a cached lookup,
 * then a computation, then JSON — is run BENCH_CALLS times per round (default 1,000,000), BENCH_ROUNDS
 * rounds (default 5), alternating: once through thenMaybe (every step has its value: no promise) and
 * once as plain async functions, each call awaited twice as Nest's router awaits a handler's result.
 * The best round of each is reported in ns per call; the difference is what a route saves per request.
 */
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');

const ROOT = join(__dirname, '..');
const { thenMaybe, bothMaybe } = require(join(ROOT, 'dist/src/common/async/maybe-async'));

const CALLS = Number(process.env.BENCH_CALLS || 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const CATEGORIES = new Map([[1, { id: 1, perKm: 120 }]]);

const price = (category, legs) => ({ fare: category.perKm * legs[0].km, promo: undefined });
const toJson = (quote) => ({ fare: quote.fare / 100 });

const maybe = {
  category: (id) => CATEGORIES.get(id),
  legs: () => [{ km: 3 }],
  estimate(id) {
    return thenMaybe(this.category(id), (category) => thenMaybe(bothMaybe(this.legs(), undefined), ([legs]) => toJson(price(category, legs))));
  },
};

const plain = {
  async category(id) {
    return CATEGORIES.get(id);
  },
  async legs() {
    return [{ km: 3 }];
  },
  async estimate(id) {
    const category = await this.category(id);
    const [legs] = await Promise.all([this.legs(), undefined]);
    return toJson(price(category, legs));
  },
};

/** As Nest's router does with a handler's result: awaited, then awaited again when sent. */
async function route(handler) {
  const result = await handler.estimate(1);
  return await result;
}

async function round(handler) {
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await route(handler);
  return ((performance.now() - started) * 1e6) / CALLS;
}

async function main() {
  const best = { maybe: Infinity, plain: Infinity };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ['maybe', 'plain'] : ['plain', 'maybe'];
    for (const name of order) best[name] = Math.min(best[name], await round(name === 'maybe' ? maybe : plain));
  }
  console.log(`estimate-shaped call, awaited as Nest does, best of ${ROUNDS} rounds × ${CALLS.toLocaleString('en')} calls:`);
  console.log(`  thenMaybe (no promise)  ${best.maybe.toFixed(0)} ns/call`);
  console.log(`  plain async             ${best.plain.toFixed(0)} ns/call`);
  console.log(`  saved per request       ${(best.plain - best.maybe).toFixed(0)} ns`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
