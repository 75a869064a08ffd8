'use strict';
/**
 * node bench/surge-signals.js (after npm run build): what one surge count costs, the figure behind
 * SURGE_SIGNALS_REFRESH_MS in src/modules/pricing/surge/surge.service.ts. 100,000 open requests spread
 * over a 30 km city in the open-requests grid (both cell sizes the index keeps); the count of those
 * within 5 km of the centre, as an estimate asks for it.
 */
const { OpenRequestsGrid } = require('../dist/src/modules/rides/read-models/open-requests/open-requests-grid');
const { OpenRequestStore } = require('../dist/src/modules/rides/read-models/open-requests/open-requests-store');

const N = 100_000;
const CENTRE = { latitude: 52.52, longitude: 13.405 };
const CALLS = 2000;

for (const cellDeg of [0.01, 0.05]) {
  const store = new OpenRequestStore();
  const grid = new OpenRequestsGrid(cellDeg, store);
  for (let i = 0; i < N; i += 1) {
    const latitude = CENTRE.latitude + (Math.random() - 0.5) * 0.27;
    const longitude = CENTRE.longitude + (Math.random() - 0.5) * 0.45;
    const id = `r${i}`;
    const json = `{"id":"${id}"}`;
    grid.put(
      store.add({
        id,
        latitude,
        longitude,
        categoryId: 1,
        expiresAtMs: Date.now() + 3_600_000,
        passengerId: i,
        updatedAtMs: 0,
        json,
        fingerprint: null,
        seq: i,
      }),
    );
  }
  let counted = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i += 1) counted += grid.count(CENTRE, 5, { categoryId: 1, openAtMs: Date.now() });
  const micros = Number(process.hrtime.bigint() - started) / CALLS / 1000;
  process.stdout.write(`cells of ${cellDeg}°: ${Math.round(counted / CALLS)} requests within 5 km, ${micros.toFixed(1)} µs per count\n`);
}
