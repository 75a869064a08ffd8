'use strict';
/**
 * node bench/nearby-cost.js [ROOT ...]: the service's CPU per GET /driver/rides/nearby served from the
 * open-requests index, A/B between builds (each ROOT a checkout with a built dist/; default this one).
 *
 * One fresh database (BENCH_ADMIN_URL) with BENCH_RIDES (default 100,000) requested rides and one
 * approved driver, written through SQL; then BENCH_ROUNDS (default 3) rounds, each starting every
 * ROOT's service in turn on it, waiting until nearby is answered from memory, warming up and
 * measuring BENCH_DURATION s (default 5) with BENCH_CONNECTIONS (default 50) connections, the bare
 * Fastify ceiling measured right before. CPU per request is the service process's user + system
 * time over the window (/proc) divided by the requests: less disturbed by other load on a shared
 * machine than requests per second. BENCH_SERVICE_ARGS adds node flags (e.g. --cpu-prof
 * --cpu-prof-dir=/tmp/prof). The database is dropped at the end unless BENCH_KEEP=1.
 */
const { spawn } = require('node:child_process');
const { join, resolve } = require('node:path');
const { startBuilt } = require('./lib/built-app');
const { openRequestsCity, nearbyAtRandomPoints, loadavg } = require('./lib/open-requests-city');
const { loadFromEnv, measureLoad } = require('./lib/stats');
const { untilNearbyFromMemory } = require('./lib/service-env');
const { freePort } = require('../sim/lib/service');

const ROOTS = process.argv.slice(2).map((r) => resolve(r));
if (ROOTS.length === 0) ROOTS.push(join(__dirname, '..'));
const RIDES = Number(process.env.BENCH_RIDES || 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const LOAD = loadFromEnv({ duration: 5, warmup: 2, connections: 50 });

async function main() {
  const city = await openRequestsCity('nearby_cost', { root: ROOTS[0], rides: RIDES });
  process.stdout.write(`seeded ${RIDES} rides in ${city.seededSeconds.toFixed(1)} s; load ${loadavg()}\n`);
  const { base, env, token } = city;
  const basePort = await freePort();
  const baseline = spawn(process.execPath, [join(__dirname, 'baseline-server.js')], { env: { ...process.env, PORT: String(basePort) }, stdio: 'ignore' });
  try {
    const args = process.env.BENCH_SERVICE_ARGS ? process.env.BENCH_SERVICE_ARGS.split(' ').filter(Boolean) : [];
    const results = ROOTS.map(() => []);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [i, root] of ROOTS.entries()) {
        const service = startBuilt(root, env, { nodeArgs: args });
        const spawnedAt = Date.now();
        let readyS, memoryS, ceiling, r;
        try {
          await service.ready();
          readyS = (Date.now() - spawnedAt) / 1000;
          await untilNearbyFromMemory(base, 900);
          memoryS = (Date.now() - spawnedAt) / 1000;
          ceiling = await measureLoad(`http://127.0.0.1:${basePort}/baseline`, undefined, undefined, LOAD);
          r = await measureLoad(base, nearbyAtRandomPoints(token), service.child.pid, LOAD);
        } finally {
          await service.stop();
        }
        results[i].push({ ...r, ratio: r.rps / ceiling.rps });
        process.stdout.write(
          `round ${round + 1} ${root}: ${r.rps} req/s, ceiling ${ceiling.rps}, ratio ${(r.rps / ceiling.rps).toFixed(3)}, p99 ${r.p99} ms, ` +
            `service CPU ${r.cpuUs.toFixed(1)} µs/request, non-2xx ${r.non2xx + r.errors}; ready ${readyS.toFixed(2)} s, from memory ${memoryS.toFixed(2)} s; load ${loadavg()}\n`,
        );
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    for (const [i, root] of ROOTS.entries()) {
      const rs = results[i];
      process.stdout.write(
        `median ${root}: ratio ${median(rs.map((r) => r.ratio)).toFixed(3)}, p99 ${median(rs.map((r) => r.p99))} ms, CPU ${median(rs.map((r) => r.cpuUs)).toFixed(1)} µs/request\n`,
      );
    }
  } finally {
    baseline.kill('SIGTERM');
    await city.database.drop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exitCode = 1;
});
