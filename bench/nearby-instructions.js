'use strict';
/**
 * node bench/nearby-instructions.js [ROOT ...]: instructions the service executes per
 * GET /driver/rides/nearby served from the open-requests index, counted by valgrind's callgrind,
 * for each ROOT (a checkout with a built dist/; default this one). Instruction counts hardly move
 * with other load on the machine, unlike requests per second or CPU time.
 *
 * One fresh database (BENCH_ADMIN_URL) with BENCH_RIDES (default 20,000: pages are still full, 50
 * rides of the driver's category within 5 km) requested rides and one approved driver. Each ROOT's
 * service runs under callgrind with instrumentation off until nearby is answered from memory and
 * BENCH_WARM requests (default 300) have warmed it up; then instrumentation is switched on for
 * BENCH_REQUESTS (default 1,000) requests from random points (4 connections), then off again and
 * the count read (callgrind_control -e, all threads). Instructions per request = the window's total
 * / requests (the window also holds the threads' GC and compiler work and any timer that fires in
 * it; the periodic sweeps and reconciliations are set to an hour). BENCH_REPEAT (default 3) windows
 * per ROOT; the lowest is the least disturbed. Needs valgrind.
 */
const { execFileSync, spawn } = require('node:child_process');
const { closeSync, openSync, readFileSync, rmSync, mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { openRequestsCity, nearbyAtRandomPoints } = require('./lib/open-requests-city');
const { untilNearbyFromMemory } = require('./lib/service-env');
const { cannon } = require('./lib/stats');

const ROOTS = process.argv.slice(2).map((r) => resolve(r));
if (ROOTS.length === 0) ROOTS.push(join(__dirname, '..'));
const RIDES = Number(process.env.BENCH_RIDES || 20_000);
const WARM = Number(process.env.BENCH_WARM || 300);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 1_000);
const REPEAT = Number(process.env.BENCH_REPEAT || 3);

const nearby = (base, token, amount) => cannon({ url: base, connections: 4, amount, requests: nearbyAtRandomPoints(token), timeout: 60 });

/**
 * vgdb names its pipes after $HOST, which the service's environment sets to its listen address:
 * callgrind_control must see the same value to find them.
 */
function control(...args) {
  return execFileSync('callgrind_control', args.map(String), {
    env: { ...process.env, HOST: '127.0.0.1' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

/** Instructions counted since the last zeroing, summed over the threads (`callgrind_control -e`). */
function countedInstructions(pid) {
  let total = 0;
  for (const m of control('-e', pid).matchAll(/^\s*Th\s+\d+\s+([\d,]+)\s*$/gm)) total += Number(m[1].replace(/,/g, ''));
  return total;
}

async function main() {
  // The periodic sweeps and reconciliations are pushed out of the windows: under valgrind a window
  // lasts minutes, and a 20,000-ride reconciliation in one would count as nearby's.
  const quiet = {
    OPEN_REQUESTS_RECONCILE_SECONDS: '3600',
    DRIVER_MATCHING_RECONCILE_SECONDS: '3600',
    RIDE_EXPIRY_SWEEP_SECONDS: '3600',
    RIDE_DISPATCH_SWEEP_SECONDS: '3600',
  };
  const city = await openRequestsCity('nearby_instr', { root: ROOTS[0], rides: RIDES, overrides: quiet });
  const { base, env, token } = city;
  const out = mkdtempSync(join(tmpdir(), 'nearby-cg-'));
  try {
    for (const root of ROOTS) {
      const args = [
        '--tool=callgrind',
        '--instr-atstart=no',
        '--smc-check=all-non-file',
        `--callgrind-out-file=${join(out, 'cg.%p')}`,
        process.execPath,
        join(root, 'dist', 'src', 'main.js'),
      ];
      const log = openSync(join(out, 'service.log'), 'w');
      const child = spawn('valgrind', args, { cwd: root, env, stdio: ['ignore', log, log] });
      closeSync(log);
      try {
        child.on('exit', (code) => code && process.stderr.write(`valgrind exited ${code}:\n${readFileSync(join(out, 'service.log'), 'utf8').slice(-2000)}\n`));
        await untilNearbyFromMemory(base, 900);
        await nearby(base, token, WARM);
        const counts = [];
        for (let i = 0; i < REPEAT; i += 1) {
          control('-z', child.pid);
          control('-i', 'on', child.pid);
          const r = await nearby(base, token, REQUESTS);
          // Read before switching off: with instrumentation off, callgrind reports nothing.
          const total = countedInstructions(child.pid);
          control('-i', 'off', child.pid);
          const ok = r.requests.total - r.non2xx;
          counts.push(total / r.requests.total);
          process.stdout.write(
            `${root}: window ${i + 1}: ${r.requests.total} requests (${ok} 2xx), ${(total / 1e6).toFixed(1)} M instructions, ${Math.round(total / r.requests.total).toLocaleString('en-US')} per request\n`,
          );
        }
        const sorted = [...counts].sort((a, b) => a - b);
        process.stdout.write(
          `${root}: ${Math.round(sorted[0]).toLocaleString('en-US')} instructions per request (lowest of ${counts.length} windows; median ${Math.round(sorted[Math.floor(sorted.length / 2)]).toLocaleString('en-US')})\n`,
        );
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r)));
      }
    }
  } finally {
    await city.database.drop();
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exitCode = 1;
});
