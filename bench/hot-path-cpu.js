'use strict';
/**
 * Service CPU per request on the everyday hot paths (estimate, ride details, heartbeat, and the
 * health probe as a floor), for several builds side by side in one run:
 *
 *   node bench/hot-path-cpu.js base=/path/to/other/worktree this=.
 *
 * Each build's dist/src/main.js runs as its own process on its own fresh database; the same users,
 * driver and ride are set up in each through the API (as bench/run.js does). Then, round after
 * round with the builds' order alternating, each path gets HOTPATH_REQUESTS requests (10
 * connections) and the service process's CPU (user + system ticks from /proc, all threads: GC and
 * compiler included) is divided by the requests. On a shared machine CPU per request moves far less
 * with other load than throughput does; the median over rounds is reported.
 * Environment: HOTPATH_REQUESTS (default 20000), HOTPATH_ROUNDS (default 5), HOTPATH_ONLY (path
 * names, comma-separated), HOTPATH_WARMUP (requests per path before the rounds, default
 * HOTPATH_REQUESTS), HOTPATH_NODE_ARGS (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof), BENCH_ADMIN_URL.
 */
const { readFileSync } = require('node:fs');
const { resolve } = require('node:path');
const { freePort } = require('../sim/lib/service');
const { freshDatabase, startBuilt } = require('./lib/built-app');
const { httpApi } = require('./lib/bench-users');
const { createHotPaths } = require('./lib/hot-paths');
const { benchServiceEnv, BENCH_OTP } = require('./lib/service-env');
const { cannon, cpuMs } = require('./lib/stats');

const REQUESTS = Number(process.env.HOTPATH_REQUESTS || 20_000);
const ROUNDS = Number(process.env.HOTPATH_ROUNDS || 5);
const CONNECTIONS = 10;
const PATHS = ['GET /health/live', 'POST /api/v1/rides/estimate', 'GET /api/v1/rides/{id}', 'PUT /api/v1/driver/location'];
const { prepare, scenarios } = createHotPaths({ connections: CONNECTIONS, warmup: 0, duration: 0, otp: BENCH_OTP });

async function start(label, dir) {
  const database = await freshDatabase(`rh_hotpath_${label.replace(/\W/g, '_')}`);
  const nodeArgs = process.env.HOTPATH_NODE_ARGS ? process.env.HOTPATH_NODE_ARGS.split(' ').filter(Boolean) : [];
  const service = startBuilt(dir, benchServiceEnv({ databaseUrl: database.url, port: await freePort() }), { nodeArgs });
  try {
    await service.ready('/health/live');
  } catch (err) {
    await service.stop();
    await database.drop();
    throw err;
  }
  return { label, dir, service, base: service.base, database };
}

/** The same users, driver and ride in each build's database, through the API (as bench/run.js does). */
async function prepareService(svc) {
  const state = await prepare(httpApi(svc.base), { refreshUsers: 0 });
  svc.paths = Object.fromEntries(scenarios(state).map((s) => [s.name, s]));
}

async function run(svc, name, amount) {
  const p = svc.paths[name];
  const before = cpuMs(svc.service.child.pid);
  const r = await cannon({ url: svc.base + p.path, method: p.method, headers: p.headers, body: p.body, connections: CONNECTIONS, amount });
  const after = cpuMs(svc.service.child.pid);
  if (r.non2xx || r.errors) throw new Error(`${svc.label} ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return ((after - before) * 1000) / r.requests.total;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const builds = process.argv.slice(2).map((arg) => {
    const [label, dir] = arg.split('=');
    return { label, dir: resolve(dir) };
  });
  const services = [];
  try {
    for (const b of builds) services.push(await start(b.label, b.dir));
    for (const svc of services) await prepareService(svc);
    const only = process.env.HOTPATH_ONLY ? process.env.HOTPATH_ONLY.split(',') : undefined;
    const names = only ?? PATHS;
    for (const name of names) {
      const skip = services.map((s) => (s.paths[name] ? s.paths[name].skip : 'no such path')).find(Boolean);
      if (skip) throw new Error(`${name}: ${skip}`);
    }
    for (const svc of services) for (const name of names) await run(svc, name, Number(process.env.HOTPATH_WARMUP || REQUESTS));
    const figures = new Map(services.map((s) => [s.label, new Map(names.map((n) => [n, []]))]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...services].reverse() : services;
      for (const name of names)
        for (const svc of order)
          figures
            .get(svc.label)
            .get(name)
            .push(await run(svc, name, REQUESTS));
      process.stdout.write(`round ${round + 1}/${ROUNDS} done, load ${readFileSync('/proc/loadavg', 'utf8').trim()}\n`);
    }
    const first = services[0].label;
    for (const name of names) {
      const cells = services.map((s) => {
        const xs = figures.get(s.label).get(name);
        const m = median(xs);
        const ratio = s.label === first ? '' : ` (${(m / median(figures.get(first).get(name))).toFixed(2)}x ${first})`;
        return `${s.label} ${m.toFixed(1)} µs [${xs.map((x) => x.toFixed(0)).join(' ')}]${ratio}`;
      });
      process.stdout.write(`${name.padEnd(30)} ${cells.join(' | ')}\n`);
    }
  } finally {
    for (const svc of services) {
      await svc.service.stop();
      await svc.database.drop();
    }
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exitCode = 1;
});
