'use strict';
/**
 * npm run bench:round-trips: how many database round trips each ride write costs at steady state.
 *
 * Boots the built service in this process (development mode, as every bench; a fresh database on
 * BENCH_ADMIN_URL, dropped at the end), signs a passenger and drivers up through the public API, and
 * drives rides through their life (book, bid, accept, chat, arrive, start, complete, rate, tip; book,
 * bid, cancel) several times. Each request's statements to PostgreSQL are counted in its own async
 * context (bench/lib/round-trip-probe.js): BEGIN and COMMIT are statements, and the pg driver sends
 * one statement per round trip. The first rounds warm caches up; the table shows the most any later
 * round took, and exits 1 when a command took more than BUDGET (issue 27: at most 3).
 * --verbose lists each command's statements.
 */
const { bootBuiltApp } = require('./lib/built-app');
const { driverOnline, injectApi, signUp } = require('./lib/bench-users');
const { countRoundTrips } = require('./lib/round-trip-probe');
const { ensureBuilt } = require('../scripts/build-if-stale');

const BUDGET = 3;
const WARM_ROUNDS = 2;
const MEASURED_ROUNDS = 3;
const VERBOSE = process.argv.includes('--verbose');
const PICKUP = { address: '1 Market St', latitude: 37.7936, longitude: -122.3958 };
const DROPOFF = { address: '500 Castro St', latitude: 37.7609, longitude: -122.435 };
const RIDE = { pickup: PICKUP, dropoff: DROPOFF, ride_type: 'one_way', vehicle_category_id: 1, passenger_count: 1, children: 0, payment_method: 'cash' };

async function main() {
  if (!process.env.BENCH_SKIP_BUILD && ensureBuilt((line) => process.stdout.write(`${line}\n`))) process.stdout.write('Built.\n');
  const { app, close } = await bootBuiltApp('rh_round_trips');
  try {
    return report(await drive(app));
  } finally {
    await close();
  }
}

/** The rides' life, round after round; per command, the statements of each measured round. */
async function drive(app) {
  const api = injectApi(app);
  const call = (method, path, options) => api(method, `/api/v1${path}`, options);
  const counts = new Map();
  const measured = async (round, command, fn) => {
    const { result, statements } = await countRoundTrips(fn);
    if (round >= WARM_ROUNDS) {
      if (!counts.has(command)) counts.set(command, []);
      counts.get(command).push(statements);
    }
    return result;
  };
  const passenger = await signUp(api, 'passenger');
  await fund(app, passenger.id, 1_000_000);
  const drivers = [];
  for (let i = 0; i < 2; i += 1) {
    const driver = await signUp(api, 'driver');
    await driverOnline(api, driver.accessToken, { plate: `RT${i}`, near: PICKUP });
    drivers.push(driver);
  }
  const [driver, other] = drivers;
  const p = passenger.accessToken;
  for (let round = 0; round < WARM_ROUNDS + MEASURED_ROUNDS; round += 1) {
    const step = (command, fn) => measured(round, command, fn);
    const ride = await step('book', () => call('POST', '/rides/book', { token: p, body: RIDE }));
    const bid = await step('bid', () => call('POST', `/driver/rides/${ride.id}/bid`, { token: driver.accessToken, body: { amount: 12, eta_minutes: 3 } }));
    await call('POST', `/driver/rides/${ride.id}/bid`, { token: other.accessToken, body: { amount: 13, eta_minutes: 4 } });
    await step('accept', () => call('POST', `/rides/${ride.id}/bids/${bid.id}/accept`, { token: p }));
    await step('chat send', () => call('POST', `/rides/${ride.id}/messages`, { token: p, body: { text: 'On my way down' } }));
    for (const [command, status] of [
      ['arrive', 'driver_arrived'],
      ['start', 'started'],
      ['complete', 'completed'],
    ]) {
      await step(command, () => call('PUT', `/rides/${ride.id}/status`, { token: driver.accessToken, body: { status } }));
    }
    await step('rate', () => call('POST', `/rides/${ride.id}/rating`, { token: p, body: { stars: 5, comment: 'Smooth' } }));
    await step('tip', () => call('POST', `/rides/${ride.id}/tip`, { token: p, body: { amount: 1 } }));
    const later = await call('POST', '/rides/book', { token: p, body: RIDE });
    await call('POST', `/driver/rides/${later.id}/bid`, { token: other.accessToken, body: { amount: 13, eta_minutes: 4 } });
    await step('cancel', () => call('POST', `/rides/${later.id}/cancel`, { token: p, body: { reason: 'Plans changed' } }));
  }
  return counts;
}

/** Credits the passenger's wallet (tips are paid from it) through a balanced ledger transfer. */
async function fund(app, userId, amountMinor) {
  const db = app.get(require('typeorm').DataSource);
  await db.transaction(async (m) => {
    await m.query(
      `INSERT INTO wallets (kind, currency) SELECT 'external', currency FROM wallets WHERE user_id = $1
       ON CONFLICT (kind) WHERE kind IN ('platform', 'external') DO NOTHING`,
      [userId],
    );
    const [external] = await m.query(`SELECT id FROM wallets WHERE kind = 'external'`);
    const [wallet] = await m.query(`SELECT id FROM wallets WHERE user_id = $1`, [userId]);
    const [{ id: transfer }] = await m.query(`SELECT gen_random_uuid() AS id`);
    await m.query(
      `INSERT INTO wallet_ledger_entries (wallet_id, transfer_id, amount_minor, kind, reason)
       VALUES ($1, $3, $4, 'funding', 'bench funding'), ($2, $3, -$4::bigint, 'funding', 'bench funding')`,
      [wallet.id, external.id, transfer, amountMinor],
    );
    await m.query(`UPDATE wallets SET balance_minor = balance_minor + $2 WHERE id = $1`, [wallet.id, amountMinor]);
    await m.query(`UPDATE wallets SET balance_minor = balance_minor - $2 WHERE id = $1`, [external.id, amountMinor]);
  });
}

function report(counts) {
  const rows = [...counts].map(([command, rounds]) => ({ command, max: Math.max(...rounds.map((s) => s.length)), statements: rounds[rounds.length - 1] }));
  process.stdout.write(`\nDatabase round trips per command (steady state, most of ${MEASURED_ROUNDS} rounds; budget ${BUDGET})\n\n`);
  process.stdout.write(`| command | round trips |\n|---|---:|\n`);
  for (const row of rows) process.stdout.write(`| ${row.command} | ${row.max}${row.max > BUDGET ? ' ✗' : ''} |\n`);
  if (VERBOSE) {
    for (const row of rows) {
      process.stdout.write(`\n${row.command}:\n`);
      for (const s of row.statements) process.stdout.write(`  ${s.length > 160 ? `${s.slice(0, 157)}...` : s}\n`);
    }
  }
  const over = rows.filter((r) => r.max > BUDGET);
  if (over.length > 0) process.stdout.write(`\nOver budget: ${over.map((r) => `${r.command} (${r.max})`).join(', ')}\n`);
  return over.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err.stack || err}\n`);
    process.exit(2);
  },
);
