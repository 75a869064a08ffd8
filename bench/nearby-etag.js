'use strict';
/**
 * node bench/nearby-etag.js: GET /driver/rides/nearby at BENCH_RIDES (default 100,000) open requests
 * against bare Fastify sending the same page bytes (bench/baseline-page-server.js), in the same run,
 * plain and gzip; and the CPU of a poll answered 304 (If-None-Match naming the current page).
 *
 * One fresh database (BENCH_ADMIN_URL) with the rides and one approved driver (SQL); the service
 * (this checkout's dist/: `npm run build` first) is started once; the page at the city's centre is
 * fetched and handed to the bare server. Each case runs BENCH_WARMUP s (default 1) then BENCH_DURATION
 * s (default 3) with BENCH_CONNECTIONS (default 20) connections, the bare case right before its
 * service case. Cases: the same point polled again and again (the page is built once, then reused
 * until a ride near it changes), random points in the city (a page built per request), gzip at the
 * same point, and 304 at the same point. CPU per request is the process's user + system time over the
 * window (/proc) divided by the requests; the statuses are printed (a 304 case must be all 304). The database is dropped at the end unless BENCH_KEEP=1.
 */
const { spawn } = require('node:child_process');
const { writeFileSync, mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');
const { freePort } = require('../sim/lib/service');
const { startBuilt, untilOk } = require('./lib/built-app');
const { CENTER } = require('./lib/city');
const { openRequestsCity, nearbyAtRandomPoints, loadavg } = require('./lib/open-requests-city');
const { loadFromEnv, measureLoad } = require('./lib/stats');
const { untilNearbyFromMemory } = require('./lib/service-env');

const ROOT = join(__dirname, '..');
const RIDES = Number(process.env.BENCH_RIDES || 100_000);
const LOAD = loadFromEnv({ duration: 3, warmup: 1, connections: 20 });

async function main() {
  const city = await openRequestsCity('nearby_etag', { root: ROOT, rides: RIDES });
  process.stdout.write(`seeded ${RIDES} rides in ${city.seededSeconds.toFixed(1)} s; load ${loadavg()}\n`);
  const { base, env, token } = city;
  const auth = { authorization: `Bearer ${token}` };
  const service = startBuilt(ROOT, env);
  let bare;
  try {
    await service.ready();
    const centre = `/api/v1/driver/rides/nearby?latitude=${CENTER.latitude}&longitude=${CENTER.longitude}&radius_km=5`;
    const loaded = await untilNearbyFromMemory(base, 900);
    process.stdout.write(`index loaded: ${loaded} open requests; load ${loadavg()}\n`);
    const first = await fetch(`${base}${centre}`, { headers: auth });
    const etag = first.headers.get('etag');
    const page = Buffer.from(await first.arrayBuffer());
    const dir = mkdtempSync(join(tmpdir(), 'nearby-etag-'));
    writeFileSync(join(dir, 'page.json'), page);
    writeFileSync(join(dir, 'page.json.gz'), gzipSync(page));
    const barePort = await freePort();
    const bareEnv = { ...process.env, PORT: String(barePort), PAGE_FILE: join(dir, 'page.json'), PAGE_GZIP_FILE: join(dir, 'page.json.gz') };
    bare = spawn(process.execPath, [join(__dirname, 'baseline-page-server.js')], { env: bareEnv, stdio: ['ignore', 'ignore', 'inherit'] });
    await untilOk(`http://127.0.0.1:${barePort}/baseline`, 30, 'bare server');
    const gzipLength = (await fetch(`${base}${centre}`, { headers: { ...auth, 'accept-encoding': 'gzip' } })).headers.get('content-length');
    process.stdout.write(`page at the centre: ${page.length} bytes (${JSON.parse(page).length} rides), gzip ${gzipLength} bytes, ETag ${etag}\n`);

    const bareUrl = `http://127.0.0.1:${barePort}`;
    const random = nearbyAtRandomPoints(token);
    const cases = [
      ['same point, plain', { path: '/page' }, [{ method: 'GET', path: centre, headers: auth }]],
      ['random points, plain', { path: '/page' }, random],
      [
        'same point, gzip',
        { path: '/page', headers: { 'accept-encoding': 'gzip' } },
        [{ method: 'GET', path: centre, headers: { ...auth, 'accept-encoding': 'gzip' } }],
      ],
      ['same point, 304', { path: '/baseline' }, [{ method: 'GET', path: centre, headers: { ...auth, 'if-none-match': etag } }]],
    ];
    for (const [name, bareRequest, requests] of cases) {
      const ceiling = await measureLoad(bareUrl, [{ method: 'GET', ...bareRequest }], bare.pid, LOAD);
      const r = await measureLoad(base, requests, service.child.pid, LOAD);
      process.stdout.write(
        `${name}: ${r.rps} req/s (bare ${ceiling.rps}), ratio ${(r.rps / ceiling.rps).toFixed(3)}, p99 ${r.p99} ms (bare ${ceiling.p99}), ` +
          `service CPU ${r.cpuUs.toFixed(1)} µs/request (bare ${ceiling.cpuUs.toFixed(1)}), statuses ${r.codes}, errors ${r.errors}; load ${loadavg()}\n`,
      );
    }
  } finally {
    if (bare) bare.kill('SIGTERM');
    await service.stop();
    await city.database.drop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exitCode = 1;
});
