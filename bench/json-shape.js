'use strict';
/**
 * node bench/json-shape.js (after `npm run build`): is compiling a read model's JSON writer to
 * JavaScript source with `new Function` (src/common/database/json-shape.ts) worth it over plain
 * closures? Both writers are made from the same declaration (RIDE, the Ride object every endpoint
 * and event carries) and checked to write the same JSON; then each writes the same rows
 * BENCH_ROUNDS times (default 5) × BENCH_ROWS rows (default 200,000), alternating, and the best
 * round of each is reported, alone and followed by JSON.stringify (what an endpoint does).
 * No database: the rows are made here, as pg returns them.
 */
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');

const ROOT = join(__dirname, '..');
const { compileJsonShape } = require(join(ROOT, 'dist/src/common/database/json-shape'));
const { toMajor } = require(join(ROOT, 'dist/src/common/money'));
const { RIDE_SHAPE } = require(join(ROOT, 'dist/src/modules/rides/read-models/ride-view'));

const ROWS = Number(process.env.BENCH_ROWS || 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);

/** The same semantics as json-shape.ts's generated code, as a tree of closures (the alternative). */
function compileClosures(spec) {
  const read = (path) => {
    const [column, ...keys] = path;
    if (keys.length === 0) return (r) => r[column];
    return (r) => {
      let t = r[column];
      for (const key of keys) {
        if (t == null) return null;
        t = t[key];
      }
      return t === undefined ? null : t;
    };
  };
  const CONVERT = {
    iso: (u) => (u instanceof Date ? u : new Date(u)).toISOString(),
    major: (u) => toMajor(Number(u)),
    number: (u) => Number(u),
    hundredths: (u) => Math.round(Number(u) * 100) / 100,
    trim: (u) => String(u).trim(),
  };
  const node = (s) => {
    if (!('fields' in s)) {
      const get = read(s.from);
      if (!s.as) return get;
      const convert = CONVERT[s.as];
      return (r) => {
        const u = get(r);
        return u == null ? null : convert(u);
      };
    }
    const entries = Object.entries(s.fields).map(([key, field]) => [key, node(field)]);
    const guards = (s.nullIf || []).map(read);
    return (r) => {
      for (const guard of guards) if (guard(r) == null) return null;
      const out = {};
      for (const [key, write] of entries) out[key] = write(r);
      return out;
    };
  };
  return node(spec);
}

function row(i) {
  const at = new Date(1_700_000_000_000 + i * 1000);
  const accepted = i % 2 === 0;
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    ride_code: 'K7M2QX',
    status: accepted ? 'accepted' : 'requested',
    ride_type: 'one_way',
    vehicle_category_id: 1,
    passenger_id: i,
    driver_id: accepted ? i + 1 : null,
    pickup_address: 'Alexanderplatz 1, Berlin',
    pickup_latitude: 52.5219,
    pickup_longitude: 13.4132,
    dropoff_address: 'Potsdamer Platz 1, Berlin',
    dropoff_latitude: 52.5096,
    dropoff_longitude: 13.3759,
    return_address: null,
    return_latitude: null,
    return_longitude: null,
    passenger_count: 1,
    children: 0,
    payment_method: 'cash',
    duration_minutes: null,
    end_scheduled_at: null,
    return_scheduled_at: null,
    promo_code: null,
    estimate: {
      vehicleCategoryId: 1,
      rideType: 'one_way',
      distanceKm: 3.4,
      durationMinutes: 9,
      baseMinor: 250,
      distanceMinor: 408,
      timeMinor: 225,
      subtotalMinor: 883,
      minimumFareMinor: 600,
      minimumFareApplied: false,
      discountMinor: 0,
      totalMinor: 883,
      promo: null,
    },
    fare_minor: accepted ? 900 : null,
    currency: 'EUR',
    accepted_bid_id: null,
    cancelled_by: null,
    cancel_reason: null,
    expires_at: at,
    accepted_at: accepted ? at : null,
    arrived_at: null,
    started_at: null,
    completed_at: null,
    cancelled_at: null,
    created_at: at,
    updated_at: at,
    p_first_name: 'Paula',
    p_last_name: 'Jones',
    p_picture: null,
    d_first_name: accepted ? 'Dana' : null,
    d_last_name: accepted ? 'Smith' : null,
    d_picture: null,
    d_rating: accepted ? '4.90' : null,
    d_category: accepted ? 1 : null,
    d_make: accepted ? 'Toyota' : null,
    d_model: accepted ? 'Corolla' : null,
    d_plate: accepted ? 'B-RH 1234' : null,
    d_color: accepted ? 'White' : null,
    d_year: accepted ? 2021 : null,
  };
}

function main() {
  const generated = compileJsonShape(RIDE_SHAPE);
  const closures = compileClosures(RIDE_SHAPE);
  const rows = Array.from({ length: 1000 }, (_, i) => row(i));
  for (const r of rows) {
    if (JSON.stringify(generated(r)) !== JSON.stringify(closures(r))) throw new Error('the two writers disagree');
  }
  const time = (write, stringify) => {
    let sink = 0;
    const start = performance.now();
    for (let i = 0; i < ROWS; i += 1) {
      const out = write(rows[i % rows.length]);
      sink += stringify ? JSON.stringify(out).length : out.currency.length;
    }
    if (sink === 0) throw new Error('unreachable');
    return ((performance.now() - start) * 1000) / ROWS;
  };
  const best = {};
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, write] of [
      ['new Function', generated],
      ['closures', closures],
    ]) {
      for (const stringify of [false, true]) {
        const key = `${name}${stringify ? ' + JSON.stringify' : ''}`;
        best[key] = Math.min(best[key] ?? Infinity, time(write, stringify));
      }
    }
  }
  process.stdout.write(`Ride object, ${ROWS} rows × ${ROUNDS} rounds, best round (µs per ride):\n`);
  for (const [key, us] of Object.entries(best)) process.stdout.write(`  ${key.padEnd(32)} ${us.toFixed(3)}\n`);
  const alone = best['closures'] / best['new Function'];
  const withJson = best['closures + JSON.stringify'] / best['new Function + JSON.stringify'];
  process.stdout.write(`closures / new Function: ${alone.toFixed(2)}× alone, ${withJson.toFixed(2)}× with JSON.stringify\n`);
}

main();
