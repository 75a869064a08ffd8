'use strict';
/**
 * Nearby against bare Fastify sending the same page bytes (bench/baseline-page-server.js), the comparison
 * issue 27 sets: the page at the city's centre is fetched once (with its ETag) and handed to the bare
 * server; then each case measures the bare server right before the service, under the same load.
 * Cases: random points (a page per request), the same point (the page reused until a ride near it
 * changes), gzip at the same point, and a 304 at the same point (If-None-Match naming the page; its
 * bare counterpart is the small JSON of GET /baseline). Used by `npm run bench` (city scenario nearby)
 * and bench/nearby-etag.js.
 */
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');
const { freePort } = require('../../sim/lib/service');
const { untilOk } = require('./built-app');
const { CENTER } = require('./city');
const { nearbyAtRandomPoints } = require('./open-requests-city');
const { measureLoad } = require('./stats');

const CENTRE_PATH = `/api/v1/driver/rides/nearby?latitude=${CENTER.latitude}&longitude=${CENTER.longitude}&radius_km=5`;

/**
 * Runs the cases against the service at `base` (process `pid`) with a driver's `token`; `load` is
 * { connections, warmup, duration }. Answers one result per case: { name, service, bare, ratio }, each
 * side as measureLoad gives it (rps, p99, cpuUs, codes), and the page's sizes.
 */
async function nearbyPageCases({ base, pid, token, load, log = () => undefined }) {
  const auth = { authorization: `Bearer ${token}` };
  const first = await fetch(`${base}${CENTRE_PATH}`, { headers: auth });
  const etag = first.headers.get('etag');
  const page = Buffer.from(await first.arrayBuffer());
  const gzipBytes = Number((await fetch(`${base}${CENTRE_PATH}`, { headers: { ...auth, 'accept-encoding': 'gzip' } })).headers.get('content-length'));
  const dir = mkdtempSync(join(tmpdir(), 'nearby-page-'));
  writeFileSync(join(dir, 'page.json'), page);
  writeFileSync(join(dir, 'page.json.gz'), gzipSync(page));
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), PAGE_FILE: join(dir, 'page.json'), PAGE_GZIP_FILE: join(dir, 'page.json.gz') };
  const bare = spawn(process.execPath, [join(__dirname, '..', 'baseline-page-server.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    const bareUrl = `http://127.0.0.1:${port}`;
    await untilOk(`${bareUrl}/baseline`, 30, 'bare page server');
    const sizes = { page_bytes: page.length, rides: JSON.parse(page).length, gzip_bytes: gzipBytes, etag };
    log(`page at the centre: ${page.length} bytes (${sizes.rides} rides), gzip ${gzipBytes} bytes, ETag ${etag}`);
    const cases = [
      ['random points', { path: '/page' }, nearbyAtRandomPoints(token)],
      ['same point', { path: '/page' }, [{ method: 'GET', path: CENTRE_PATH, headers: auth }]],
      [
        'same point, gzip',
        { path: '/page', headers: { 'accept-encoding': 'gzip' } },
        [{ method: 'GET', path: CENTRE_PATH, headers: { ...auth, 'accept-encoding': 'gzip' } }],
      ],
      ['same point, 304', { path: '/baseline' }, [{ method: 'GET', path: CENTRE_PATH, headers: { ...auth, 'if-none-match': etag } }]],
    ];
    const results = [];
    // NEARBY_CASES (comma-separated case names) narrows the cases, e.g. to profile one.
    const only = process.env.NEARBY_CASES ? process.env.NEARBY_CASES.split(',') : undefined;
    for (const [name, bareRequest, requests] of cases.filter(([name]) => !only || only.includes(name))) {
      const bareSide = await measureLoad(bareUrl, [{ method: 'GET', ...bareRequest }], bare.pid, load);
      const service = await measureLoad(base, requests, pid, load);
      const result = { name, service, bare: bareSide, ratio: service.rps / bareSide.rps, sizes };
      results.push(result);
      log(
        `${name}: ${service.rps} req/s (bare ${bareSide.rps}), ratio ${result.ratio.toFixed(3)}, p99 ${service.p99} ms (bare ${bareSide.p99}), ` +
          `service CPU ${service.cpuUs.toFixed(1)} µs/request (bare ${bareSide.cpuUs.toFixed(1)}), statuses ${service.codes}, errors ${service.errors}`,
      );
    }
    return results;
  } finally {
    bare.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { nearbyPageCases, CENTRE_PATH };
