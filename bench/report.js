'use strict';
// The targets of the city-scale issue, judged on one run's figures, and BENCHMARKS.md.
const { writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { capacityLines, capacitySvg } = require('./lib/capacity-report');

const find = (rows, prefix) => rows.find((r) => r.name.startsWith(prefix));

/** Each target: its text, the figure it reads, and whether it is met (undefined: not measured). */
function judge(report) {
  const rows = report.results;
  const nearby100k = rows.find((r) => r.name.startsWith('GET /driver/rides/nearby') && r.city_rides === 100_000);
  const nearby1m = rows.find((r) => r.name.startsWith('GET /driver/rides/nearby') && r.city_rides === 1_000_000);
  const fan = find(rows, 'ride_requested fan-out');
  const behindCancelled = find(rows, 'GET /driver/rides/nearby, 20 open behind');
  // A window in which no request completed has no latency: autocannon's p99 0 would read as met.
  const silent = (r) => r && r.total === 0;
  const ratio = (r) => (r && r.ratio !== undefined ? r.ratio : undefined);
  const p99 = (r) => (silent(r) ? 'no request completed' : r && r.latency_ms ? r.latency_ms.p99 : undefined);
  const check = (target, figure, ok) => ({ target, figure: figure === undefined || figure === null ? 'not measured' : figure, met: figure === undefined || figure === null ? undefined : ok });
  const fmt = (v, unit = '') => (v === undefined || v === null ? undefined : `${typeof v === 'number' ? Math.round(v * 100) / 100 : v}${unit}`);
  const heartbeat = find(rows, 'PUT /api/v1/driver/location');
  const heartbeat10k = find(rows, 'PUT /driver/location,');
  const estimate = find(rows, 'POST /api/v1/rides/estimate');
  const details = find(rows, 'GET /api/v1/rides/{id}');
  return [
    // Issue 17's targets: the same for 100k, 1M and 20 open requests behind 200k freshly cancelled.
    ...[
      ['100k rides', nearby100k],
      ['1M rides', nearby1m],
      ['20 open behind 200k cancelled', behindCancelled],
    ].flatMap(([label, row]) => [
      check(`nearby, ${label}: ≥ 0.30 × ceiling`, fmt(ratio(row)), ratio(row) >= 0.3),
      check(`nearby, ${label}: p99 ≤ 10 ms`, fmt(p99(row), typeof p99(row) === 'number' ? ' ms' : ''), typeof p99(row) === 'number' && p99(row) <= 10),
    ]),
    check('ride_requested fan-out: p99 ≤ 50 ms', fmt(fan && fan.latency_ms.p99, ' ms'), fan && fan.latency_ms.p99 <= 50),
    check('≤ 20 KB per idle socket', fmt(fan && fan.kb_per_socket, ' KB'), fan && fan.kb_per_socket <= 20),
    check('heartbeat (one driver): ≥ 0.45 × ceiling', fmt(ratio(heartbeat)), ratio(heartbeat) >= 0.45),
    check('heartbeat (every seeded driver): ≥ 0.45 × ceiling', fmt(ratio(heartbeat10k)), ratio(heartbeat10k) >= 0.45),
    check('estimate: ≥ 0.45 × ceiling', fmt(ratio(estimate)), ratio(estimate) >= 0.45),
    check('ride details: ≥ 0.55 × ceiling', fmt(ratio(details)), ratio(details) >= 0.55),
    check('RSS after the standard HTTP load ≤ 150 MB', fmt(report.memory.rss_after_http_load_mb, ' MB'), report.memory.rss_after_http_load_mb <= 150),
    check('start-up on existing data ≤ 2 s', fmt(report.startup && report.startup.seconds, ' s'), report.startup && report.startup.seconds <= 2),
  ];
}

const mark = (met) => (met === undefined ? '–' : met ? 'met' : 'not met');

function throughputTable(rows) {
  const lines = ['| Scenario | req/s | ceiling req/s | × ceiling | p50 ms | p99 ms | failed | note |', '|---|---:|---:|---:|---:|---:|---:|---|'];
  for (const r of rows.filter((x) => x.requests_per_second !== undefined || (x.note && x.note.startsWith('skipped')))) {
    lines.push(
      `| ${r.name} | ${r.requests_per_second ?? '–'} | ${r.baseline_requests_per_second ?? '–'} | ${r.ratio !== undefined ? r.ratio.toFixed(2) : '–'} | ${r.latency_ms ? r.latency_ms.p50 : '–'} | ${r.latency_ms ? r.latency_ms.p99 : '–'} | ${r.non_2xx !== undefined ? r.non_2xx + (r.errors || 0) : '–'} | ${r.note || ''} |`,
    );
  }
  return lines.join('\n');
}

function markdown(report) {
  const fan = report.results.find((r) => r.name.startsWith('ride_requested fan-out'));
  const race = report.results.find((r) => r.name.startsWith('accept races'));
  const out = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (see the README, "Benchmarks"); do not edit by hand. Throughputs are',
    'ratios to bare Fastify measured in the same run, right before each scenario ("ceiling"), so that',
    'load from other work on the machine weighs on both sides. The machine was shared with other',
    'jobs during this run: absolute figures are noisy, ratios less so.',
    '',
    `- Date: ${report.at}`,
    `- Commit: ${report.commit}`,
    `- Machine: ${report.cpus} × ${report.cpu_model}, Node ${report.node}`,
    `- Database: ${report.database}; Redis: ${report.redis ? 'yes' : 'no (in-process)'}`,
    `- Load: autocannon, ${report.connections} connections, ${report.warmup_s} s warm-up + ${report.duration_s} s per scenario${report.quick ? ' (--quick)' : ''}`,
    '',
    '## Targets',
    '',
    '| Target | Figure | |',
    '|---|---:|---|',
    ...report.targets.map((t) => `| ${t.target} | ${t.figure} | ${mark(t.met)} |`),
    '',
    '## Throughput',
    '',
    throughputTable(report.results),
    '',
  ];
  if (fan) {
    out.push(
      '## ride_requested fan-out',
      '',
      `${fan.sockets_open} driver sockets over ${report.ws_workers} worker processes, every driver heartbeating within about 1 km of the pickup; ${fan.bookings} bookings (cancelled in between).`,
      `Latency is arrival at the socket − the booking's HTTP response, on the same machine clock (can be slightly negative: the event may beat the response).`,
      '',
      '| delivered / expected | p50 ms | p99 ms | max ms | RSS before sockets | RSS with sockets | KB per socket |',
      '|---:|---:|---:|---:|---:|---:|---:|',
      `| ${fan.delivered} / ${fan.expected_deliveries} | ${fan.latency_ms.p50} | ${fan.latency_ms.p99} | ${fan.latency_ms.max} | ${fan.rss_before_sockets_mb} MB | ${fan.rss_with_sockets_mb} MB | ${fan.kb_per_socket} |`,
      '',
      ...fanOutCostLines(fan),
    );
  }
  if (report.capacity && report.capacity.modes) out.push(...capacityLines(report.capacity));
  if (race) {
    out.push(
      '## Accept races',
      '',
      `${race.rides} rides, ${race.ok + race.conflict + race.other_4xx + race.server_errors} accepts: ${race.ok} × 200, ${race.conflict} × 409, ${race.server_errors} × 5xx, ${race.other_4xx} other 4xx; rides with exactly one winner: ${race.rides_with_one_winner}, with two or more: ${race.rides_with_two_or_more}.`,
      '',
    );
  }
  out.push(
    '## Memory and start-up',
    '',
    `- Service RSS idle (after set-up): ${report.memory.rss_idle_mb} MB; after the standard HTTP load: ${report.memory.rss_after_http_load_mb} MB; at the end of the city scenarios: ${report.memory.rss_end_mb} MB.`,
    `- Start-up on the existing data (${report.startup ? report.startup.rides_in_database.toLocaleString('en-US') : '?'} rides): ${report.startup ? report.startup.seconds : '?'} s from spawn to \`/health/ready\` 200.`,
    '',
  );
  return out.join('\n');
}

/**
 * The fan-out's cost per socket against a bare ws server in the same run (bench/fanout-cost.js):
 * server CPU, client CPU, and the first-to-last arrival spread the clients see.
 */
function fanOutCostLines(fan) {
  if (!fan || !fan.baseline) return [];
  const b = fan.baseline;
  const r = fan.ratios || {};
  return [
    `Cost per socket (${fan.frame_bytes}-byte frame; CPU from before the booking until every socket has the frame, /proc ticks for the servers, process.cpuUsage for the clients; spread = arrival − the event's first arrival). Baseline: a bare \`ws\` server (bench/baseline-ws-server.js) writing a frame of the same size to as many sockets of the same client workers, measured right after.`,
    '',
    '| | server CPU µs/socket | clients CPU µs/socket | spread p50 ms | spread p99 ms |',
    '|---|---:|---:|---:|---:|',
    `| service (booking → matcher → ConnectionRegistry) | ${fan.server_us} | ${fan.clients_us} | ${fan.spread_ms.p50} | ${fan.spread_ms.p99} |`,
    `| bare ws server (baseline) | ${b.server_us} | ${b.clients_us} | ${b.spread_ms.p50} | ${b.spread_ms.p99} |`,
    `| ratio service / baseline | ${r.server_us_per_socket ?? '–'} | ${r.clients_us_per_socket ?? '–'} | | ${r.spread_p99 ?? '–'} |`,
    '',
    fan.first_arrival_ms ? `First arrival − booking response, per booking: p50 ${fan.first_arrival_ms.p50} ms, max ${fan.first_arrival_ms.max} ms (negative: the frames left while the booking was still answering).` : '',
    '',
  ];
}

function writeMarkdown(path, report) {
  writeFileSync(path, markdown(report));
  if (report.capacity && report.capacity.modes) writeFileSync(join(dirname(path), 'docs', 'capacity-p99.svg'), capacitySvg(report.capacity));
}

module.exports = { judge, mark, writeMarkdown, fanOutCostLines };
