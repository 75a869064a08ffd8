'use strict';
/**
 * BENCHMARKS.md, the reference figures: each scenario's current figures, what they measure and how to
 * reproduce them, from the JSON of the runs they come from (bench/reference-run.json, which a full
 * `npm run bench` replaces with its own). `node bench/report.js [run.json]` regenerates the file;
 * test/foundation/benchmarks-doc.e2e-spec.ts checks that the committed file is exactly that.
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { capacityCompactLines, capacitySvg, heldText } = require('./lib/capacity-report');

const REFERENCE = join(__dirname, 'reference-run.json');
const find = (rows, prefix) => rows.find((r) => r.name.startsWith(prefix));
const cell = (v, unit = '') => (v === undefined || v === null ? '–' : `${typeof v === 'number' ? v.toLocaleString('en-US') : v}${unit}`);

/** The runs behind a report: a full run names itself; a reference assembled from several lists them. */
function runsOf(report) {
  if (report.runs) return report.runs;
  const command = report.quick ? 'npm run bench -- --quick' : 'npm run bench';
  return [
    {
      id: 'A',
      at: report.at,
      commit: report.commit,
      command,
      node: report.node,
      cpus: report.cpus,
      cpu_model: report.cpu_model,
      database: report.database,
      redis: report.redis,
      load: report.load,
    },
  ];
}
const runOf = (report, part) => (part && part.run) || runsOf(report)[0].id;

/** Each target of issue 27 (and the earlier ones still standing): its text, the figure it reads, its run, and whether it is met (undefined: not measured). */
function judge(report) {
  const rows = report.results;
  const pages = rows.find((r) => r.name.startsWith("GET /driver/rides/nearby against the same page's bytes") && r.city_rides === 100_000);
  const pageCase = (name) => pages && pages.cases && Object.assign(pages.cases.find((c) => c.name === name) || {}, { run: pages.run });
  const random = pageCase('random points');
  const notModified = pageCase('same point, 304');
  const fan = find(rows, 'ride_requested fan-out');
  const clientSide = fan && fan.latency_ms ? fan.latency_ms.p99 : undefined;
  const fmt = (v, unit = '') => (v === undefined || v === null ? undefined : `${typeof v === 'number' ? Math.round(v * 100) / 100 : v}${unit}`);
  const check = (target, part, figure, ok) => ({
    target,
    run: part ? runOf(report, part) : undefined,
    figure: figure ?? 'not measured',
    met: figure === undefined ? undefined : Boolean(ok),
  });
  const ratio = (target, r, min) => check(target, r, fmt(r && r.ratio), r && r.ratio >= min);
  const held = (n) => report.capacity && report.capacity.modes && report.capacity.modes[n];
  const heldFigure = (n) => (held(n) && !held(n).skipped ? heldText(held(n)) : undefined);
  return [
    ratio("nearby, 100k rides, random points: ≥ 0.5 × bare Fastify sending the same page's bytes", random && random.service && random, 0.5),
    check(
      'nearby, 100k rides, random points: p99 ≤ 20 ms',
      random && random.service && random,
      fmt(random && random.service && random.service.p99, ' ms'),
      random && random.service && random.service.p99 <= 20,
    ),
    check(
      'nearby, an unchanged poll: 304 in well under a millisecond of CPU (≤ 0.25 ms)',
      notModified && notModified.service && notModified,
      fmt(notModified && notModified.service && notModified.service.cpuUs, ' µs'),
      notModified && notModified.service && notModified.service.cpuUs <= 250,
    ),
    ratio('heartbeat (one driver): ≥ 0.40 × ceiling', find(rows, 'PUT /api/v1/driver/location'), 0.4),
    ratio('heartbeat (every seeded driver): ≥ 0.40 × ceiling', find(rows, 'PUT /driver/location,'), 0.4),
    ratio('estimate: ≥ 0.40 × ceiling', find(rows, 'POST /api/v1/rides/estimate'), 0.4),
    check('ride_requested to 10,000 sockets: p99 ≤ 150 ms at the receiving clients', fan, fmt(clientSide, ' ms'), clientSide <= 150),
    check('≤ 20 KB per idle socket', fan, fmt(fan && fan.kb_per_socket, ' KB'), fan && fan.kb_per_socket <= 20),
    check('one instance holds 15,000 online drivers (city capacity)', report.capacity, heldFigure(1), held(1) && held(1).largest_held >= 15_000),
    check(
      'two instances over Redis hold more than one',
      report.capacity,
      heldFigure(2),
      held(1) && held(2) && !held(2).skipped && held(2).largest_held > held(1).largest_held,
    ),
    // Earlier targets (issue 17) that no later issue replaced.
    ratio('ride details: ≥ 0.55 × ceiling', find(rows, 'GET /api/v1/rides/{id}'), 0.55),
    check(
      'RSS after the standard HTTP load ≤ 150 MB',
      report.memory,
      fmt(report.memory && report.memory.rss_after_http_load_mb, ' MB'),
      report.memory && report.memory.rss_after_http_load_mb <= 150,
    ),
    check(
      'start-up on existing data ≤ 2 s',
      report.startup,
      fmt(report.startup && report.startup.seconds, ' s'),
      report.startup && report.startup.seconds <= 2,
    ),
  ];
}

const mark = (met) => (met === undefined ? '–' : met ? 'met' : 'not met');

const HOT_PATHS = [
  '## Hot paths',
  '',
  'Each everyday endpoint through the public API, one at a time: autocannon with 50 connections, 2 s of warm-up, then 5 s measured,',
  'right after a ceiling run. "× ceiling" is the share of bare Fastify\'s throughput the endpoint reaches on the same machine at that',
  "moment; CPU per request (when recorded) is the service process's and its PostgreSQL backends' CPU time over the requests, from /proc.",
  'The last row has 10,000 seeded drivers heartbeat in turn (every heartbeat a different driver), not one.',
  'Reproduce: `BENCH_CITY=heartbeats npm run bench` (`BENCH_ONLY=estimate,nearby` narrows the endpoints).',
  '',
];
const NEARBY = [
  '## Nearby at city scale',
  '',
  'GET /driver/rides/nearby from random points of a 67 × 67 km city around Berlin, radius 5 km, pages of 50 rides (about 66 KB), over',
  'requested rides written through SQL; the service is restarted on them, and the figures are taken once nearby is answered from the',
  'in-memory open-requests index. "ready" is the spawn to /health/ready 200, "from memory" the spawn to the first page served by the index',
  '(the database answers the same page until then); RSS per open request is over an idle service. "20 open behind 200,000" cancels',
  "200,000 indexed rides behind the service's back and writes 20 new ones near the centre: the page is 20 rides, hence the higher ratio.",
  'Reproduce: `BENCH_ONLY=none BENCH_CITY=nearby BENCH_RIDES=100000,1000000 npm run bench`.',
  '',
];
const FAN_OUT = [
  '## ride_requested fan-out',
  '',
  'Every one of 10,000 drivers holds a WebSocket (opened by 2 bench/ws-worker.js processes on the same machine) and heartbeats near one',
  "pickup; a passenger books there 5 times. Server side is the service's own clock (from /metrics, with METRICS_TOKEN): the event reaching",
  'the realtime service → its first and its last socket write. Client side is the last arrival − the last write. The baseline is a bare',
  '`ws` server (bench/baseline-ws-server.js) writing a frame of the same size to as many sockets of the same workers, in the same run.',
  'CPU per socket counts from before the booking until every socket has the frame. One write system call per socket is the floor: on',
  "loopback the receiving side of TCP also runs in the writer's time.",
  'Reproduce: `METRICS_TOKEN=fanout-bench DRIVER_LOCATION_MAX_AGE_SECONDS=600 BENCH_ONLY=none BENCH_CITY=fanout npm run bench` (positions kept',
  '600 s: on a loaded machine a round of 10,000 heartbeats can outlast the 60 s the matcher trusts a position).',
  '',
];
const STANDALONE = [
  '## Standalone scripts',
  '',
  'Not part of `npm run bench`; each runs on a build (`npm run build`) and prints its figures. Their latest figures are quoted with the',
  'decision they support in [docs/decisions.md](docs/decisions.md).',
  '',
  '| script | measures |',
  '|---|---|',
  '| `node bench/hot-path-cpu.js base=<dir> this=<dir>` | service CPU per request of heartbeat, estimate, ride details and /health/live, builds side by side in alternating rounds |',
  "| `node --expose-gc bench/open-requests-memory.js` | the open-requests index's heap per entry and the time to build a nearby page (`BENCH_COMPARE=<dist>`: two builds, answers compared) |",
  "| `BENCH_ROUNDS=15 node bench/fanout-send-cost.js` | a fan-out's server CPU per socket layer by layer: the service's registry, a bare `ws.send` loop, a prebuilt frame |",
  '| `node bench/nearby-city.js` | the nearby SQL query alone over 100,000 rides: EXPLAIN (ANALYZE, BUFFERS) and 2,000 timed queries |',
  "| `node bench/nearby-cost.js <dir> <dir>` / `node bench/nearby-instructions.js <dir> <dir>` | nearby's CPU per request and its instructions per request (callgrind), two builds A/B |",
  '| `node bench/surge-signals.js` | one surge count (open requests and free drivers within the radius) at 100,000 open requests |',
  '| `node bench/cache-structures.js`, `node bench/helmet-headers.js`, `node bench/json-shape.js` | the maintained libraries and compiled writers against the hand-written code they replaced |',
  "| `node bench/lib/capacity-client-cost.js` | the capacity load generators' HTTP client against node:http |",
  '| `node bench/maybe-async.js` | an estimate-shaped call answered without a promise (`src/common/async/maybe-async.ts`) against plain async, awaited as Nest awaits a handler (docs/decisions.md, 2026-11-27) |',
  '',
];

function hotPathTable(report, rows) {
  const lines = [
    '| scenario | run | req/s | ceiling req/s | × ceiling | p50 ms | p99 ms | failed | service CPU µs/request | database CPU µs/request |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const cpu = r.cpu_per_request || {};
    const failed = r.non_2xx !== undefined ? r.non_2xx + (r.errors || 0) : undefined;
    const skipped = r.note && r.note.startsWith('skipped') ? ` (${r.note})` : '';
    lines.push(
      `| ${r.name}${skipped} | ${runOf(report, r)} | ${cell(r.requests_per_second)} | ${cell(r.baseline_requests_per_second)} | ${r.ratio !== undefined ? r.ratio.toFixed(2) : '–'} | ${cell(r.latency_ms && r.latency_ms.p50)} | ${cell(r.latency_ms && r.latency_ms.p99)} | ${cell(failed)} | ${cell(cpu.service_us)} | ${cell(cpu.db_us)} |`,
    );
  }
  return lines;
}

function nearbyTable(report, rows) {
  const lines = [
    '| scenario | run | req/s | ceiling req/s | × ceiling | p50 / p99 ms | service CPU µs/request | database CPU µs/request | ready s | from memory s | RSS B per open request |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const cpu = r.cpu_per_request || {};
    lines.push(
      `| ${r.name.replace('GET /driver/rides/nearby, ', '')} | ${runOf(report, r)} | ${cell(r.requests_per_second)} | ${cell(r.baseline_requests_per_second)} | ${r.ratio !== undefined ? r.ratio.toFixed(2) : '–'} | ${r.latency_ms ? `${r.latency_ms.p50} / ${r.latency_ms.p99}` : '–'} | ${cell(cpu.service_us)} | ${cell(cpu.db_us)} | ${cell(r.ready_s)} | ${cell(r.startup_load_s)} | ${cell(r.rss_bytes_per_open_request)} |`,
    );
  }
  return lines;
}

const NEARBY_PAGES = [
  "### Against bare Fastify sending the same page's bytes",
  '',
  "Issue 27's comparison: the page at the city's centre is fetched once and handed to bare Fastify (bench/baseline-page-server.js), which",
  'sends its bytes (or their gzip) for every request; each case measures it right before the service, same load. "random points" builds a',
  'page per request; "same point" polls one point again and again (the page is kept until a ride near it changes); "gzip" asks for',
  'gzip; "304" names the current ETag in If-None-Match (its bare side is the small JSON of the ceiling). CPU is the process\'s user +',
  'system time over the window per request. Reproduce alone: `node bench/nearby-etag.js` (after `npm run build`).',
  '',
];

function nearbyPagesTable(report, row) {
  const page = row.page || {};
  return [
    `Run ${runOf(report, row)}, ${cell(row.city_rides)} rides; the page at the centre: ${cell(page.rides)} rides, ${cell(page.page_bytes)} bytes, gzip ${cell(page.gzip_bytes)} bytes.`,
    '',
    '| case | req/s | bare req/s | × bare | p99 ms | bare p99 ms | service CPU µs/request | bare CPU µs/request | statuses |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...(row.cases || []).map(
      (c) =>
        `| ${c.name} | ${cell(c.service.rps)} | ${cell(c.bare.rps)} | ${c.ratio.toFixed(2)} | ${cell(c.service.p99)} | ${cell(c.bare.p99)} | ${cell(Math.round(c.service.cpuUs))} | ${cell(Math.round(c.bare.cpuUs))} | ${c.service.codes} |`,
    ),
  ];
}

function fanOutTable(report, fan) {
  const b = fan.baseline || {};
  const pair = (x, key = 'p99') => (x ? `${x.p50} / ${x[key]}` : undefined);
  const side = fan.server_side_ms || {};
  const rows = [
    [
      'delivered / expected',
      `${cell(fan.delivered)} / ${cell(fan.expected_deliveries)}`,
      b.delivered !== undefined ? `${cell(b.delivered)} / ${cell(fan.expected_deliveries)}` : undefined,
    ],
    ['server side: event → first write, p50 / max ms', pair(side.first_write, 'max'), undefined],
    ['server side: event → last write, p50 / p99 ms', pair(side.last_write), pair(b.server_side_ms)],
    ['server CPU per socket, µs', fan.server_us, b.server_us],
    ['client side: last arrival − last write, p50 / p99 ms', pair(fan.client_side_ms), undefined],
    ['client CPU per socket, µs', fan.clients_us, b.clients_us],
    ['arrival − booking response, p50 / p99 ms', pair(fan.latency_ms), undefined],
    ['GET /health/live during the fan-outs, p50 / p99 ms', pair(fan.other_requests_ms), undefined],
    ['GET /health/live with no fan-out, p99 ms', fan.other_requests_idle_ms && fan.other_requests_idle_ms.p99, undefined],
    ['RSS per idle socket, KB', fan.kb_per_socket, undefined],
  ].filter(([, service]) => service !== undefined && service !== null);
  return [
    `Run ${runOf(report, fan)}: ${cell(fan.sockets_open)} sockets, ${cell(fan.bookings)} bookings.${fan.ratios && fan.ratios.server_side_p99 ? ` The service's server-side p99 is ${fan.ratios.server_side_p99.toFixed(2)} of the bare loop's.` : ''}`,
    '',
    '| | service | bare `ws` server, same run |',
    '|---|---:|---:|',
    ...rows.map(([label, service, base]) => `| ${label} | ${cell(service)} | ${cell(base)} |`),
  ];
}

function markdown(report) {
  const rows = report.results;
  const nearbyRows = rows.filter((r) => r.name.startsWith('GET /driver/rides/nearby,'));
  const hotRows = rows.filter((r) => (r.requests_per_second !== undefined || (r.note && r.note.startsWith('skipped'))) && !nearbyRows.includes(r));
  const fan = find(rows, 'ride_requested fan-out');
  const race = find(rows, 'accept races');
  const out = [
    '# Benchmarks',
    '',
    "The service's reference figures: what each measures, the latest figures and how to reproduce them. Written by `node bench/report.js`",
    'from [bench/reference-run.json](bench/reference-run.json), the runs below; a full `npm run bench` replaces both (a narrowed one writes',
    'bench/results/latest.json only), and a test checks that this file is what the generator writes from that JSON. Every throughput is a',
    'ratio to bare Fastify (one route answering a small JSON, "the ceiling") measured right before it in the same run, so load from other',
    "work weighs on both sides; between two versions on a shared machine, compare CPU per request. The bench itself, its knobs and CI's",
    'quick run: [docs/testing.md](docs/testing.md#benchmarks). What these figures decided: [docs/decisions.md](docs/decisions.md).',
    '',
    '## Runs',
    '',
    '| run | when (UTC) | commit | command | machine | load |',
    '|---|---|---|---|---|---|',
    ...runsOf(report).map(
      (r) =>
        `| ${r.id} | ${r.at} | ${r.commit} | \`${r.command}\` | ${r.cpus} × ${r.cpu_model}, Node ${r.node}; ${r.database}; Redis: ${r.redis ? (r.redis === true ? 'yes' : r.redis) : 'no'} | ${r.load || '–'} |`,
    ),
    '',
    '## Targets',
    '',
    '| target | figure | run | |',
    '|---|---:|---|---|',
    ...judge(report).map((t) => `| ${t.target} | ${t.figure} | ${t.run || '–'} | ${mark(t.met)} |`),
    '',
    ...HOT_PATHS,
    ...hotPathTable(report, hotRows),
    '',
  ];
  if (nearbyRows.length) out.push(...NEARBY, ...nearbyTable(report, nearbyRows), '');
  for (const pages of rows.filter((r) => r.cases && r.name.startsWith('GET /driver/rides/nearby against')))
    out.push(...NEARBY_PAGES, ...nearbyPagesTable(report, pages), '');
  if (fan) out.push(...FAN_OUT, ...fanOutTable(report, fan), '');
  if (report.capacity && report.capacity.modes) out.push(...capacityCompactLines(report.capacity, runOf(report, report.capacity)));
  if (race) {
    out.push(
      '## Accept races',
      '',
      `${race.rides} rides, each accepted by 10 concurrent requests (run ${runOf(report, race)}): ${race.ok} × 200, ${race.conflict} × 409, ${race.server_errors} × 5xx, ${race.other_4xx} other 4xx; rides with exactly one winner ${race.rides_with_one_winner}, with two or more ${race.rides_with_two_or_more}.`,
      'Reproduce: `BENCH_ONLY=none BENCH_CITY=races npm run bench`.',
      '',
    );
  }
  const m = report.memory || {};
  out.push(
    '## Memory and start-up',
    '',
    `- Service RSS (run ${runOf(report, report.memory)}): idle after set-up ${cell(m.rss_idle_mb, ' MB')}; after the hot-path load ${cell(m.rss_after_http_load_mb, ' MB')}; at the end of the city scenarios ${cell(m.rss_end_mb, ' MB')}.`,
    report.startup
      ? `- Start-up on the data the run wrote (${report.startup.rides_in_database.toLocaleString('en-US')} rides, run ${runOf(report, report.startup)}): ${report.startup.seconds} s from spawn to \`/health/ready\` 200 (\`BENCH_CITY=restart\`).`
      : '- Start-up: not measured in these runs.',
    '',
    ...STANDALONE,
  );
  return `${out.join('\n')}\n`;
}

function writeMarkdown(path, report) {
  writeFileSync(path, markdown(report));
  if (report.capacity && report.capacity.modes) writeFileSync(join(dirname(path), 'docs', 'capacity-p99.svg'), capacitySvg(report.capacity));
}

module.exports = { judge, mark, markdown, writeMarkdown, REFERENCE };

if (require.main === module) {
  const input = process.argv[2] || REFERENCE;
  writeMarkdown(join(__dirname, '..', 'BENCHMARKS.md'), JSON.parse(readFileSync(input, 'utf8')));
  process.stdout.write(`BENCHMARKS.md and docs/capacity-p99.svg written from ${input}\n`);
}
