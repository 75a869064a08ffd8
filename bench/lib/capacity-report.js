'use strict';
// The city-capacity scenario's figures: BENCHMARKS.md's section (a compact table per mode), an SVG plot
// of p99 against the number of online drivers, and every endpoint's p99 per step for a closer look:
// `node bench/lib/capacity-report.js [latest.json] [out.svg]` prints those tables and writes the plot.
const { readFileSync, writeFileSync } = require('node:fs');

const ENDPOINTS = [
  ['PUT /driver/location', 'heartbeat'],
  ['GET /driver/rides/nearby', 'nearby'],
  ['POST /rides/book', 'book'],
  ['POST /driver/rides/{id}/bid', 'bid'],
  ['POST /rides/{id}/bids/{id}/accept', 'accept'],
  ['PUT /rides/{id}/status', 'status'],
  ['POST /rides/{id}/cancel', 'cancel'],
];
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const cell = (v) => (v === undefined || v === null ? '–' : String(v));

function modeLabel(n) {
  return Number(n) === 1 ? 'one instance' : `${n} instances over Redis`;
}

function markdown(capacity) {
  const lines = [];
  for (const [n, mode] of Object.entries(capacity.modes)) {
    lines.push('', `### ${modeLabel(n)}: held ${mode.skipped ? '(skipped)' : (mode.largest_held || 0).toLocaleString('en-US')} drivers`, '');
    if (mode.skipped) {
      lines.push(`Skipped: ${mode.skipped}.`);
      continue;
    }
    lines.push(
      `| D | ${ENDPOINTS.map(([, short]) => `${short} p99`).join(' | ')} | ride_requested p99 (p50) | errors | req/s | service CPU | µs/request | database CPU | pool wait mean ms | event loop p99 / max ms | load avg | held |`,
      `|---:|${ENDPOINTS.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|`,
    );
    for (const s of mode.steps) {
      if (s.skipped) {
        lines.push(`| ${s.drivers.toLocaleString('en-US')} | skipped: ${s.skipped} |`);
        continue;
      }
      const e = s.endpoints || {};
      const metrics = (s.event_loop || []).filter(Boolean);
      const lag = metrics.map((l) => `${l.p99_ms} / ${l.max_ms}`).join(', ');
      const poolWait = metrics.map((l) => cell(l.pool_wait_mean_ms)).join(', ');
      const rr = s.ride_requested || {};
      lines.push(
        `| ${s.drivers.toLocaleString('en-US')} | ${ENDPOINTS.map(([label]) => cell(e[label] && e[label].p99)).join(' | ')} | ${cell(rr.p99)} (${cell(rr.p50)}) | ${s.errors} | ${Math.round(s.requests / s.seconds)} | ${s.service_cpu_percent} % | ${cell(s.service_cpu_us_per_request)} | ${s.database_cpu_percent === undefined ? '–' : `${s.database_cpu_percent} %`} | ${poolWait || '–'} | ${lag || '–'} | ${s.load_average === undefined ? '–' : s.load_average.toFixed(1)} | ${s.held ? 'yes' : `no: ${s.why_not}`} |`,
      );
    }
  }
  return lines.join('\n');
}

/** The server's own time per endpoint (from /metrics) beside what the clients measured. */
function serverLines(capacity) {
  const lines = [];
  for (const [n, mode] of Object.entries(capacity.modes)) {
    if (!mode.steps || !mode.steps.some((s) => (s.event_loop || []).some((l) => l && l.routes))) continue;
    lines.push(
      '',
      `Server side, ${modeLabel(n)} (each instance's /metrics over the window: mean ms / the histogram bucket holding the p99, ≤ ms; client p99 in brackets):`,
      '',
      `| D | ${ENDPOINTS.map(([, short]) => short).join(' | ')} |`,
      `|---:|${ENDPOINTS.map(() => '---:').join('|')}|`,
    );
    for (const s of mode.steps.filter((x) => !x.skipped)) {
      const merged = {};
      for (const l of (s.event_loop || []).filter(Boolean)) {
        for (const [key, r] of Object.entries(l.routes || {})) {
          const label = key.replace('/api/v1', '').replace(/:[a-z_]+/g, '{id}');
          const into = (merged[label] ??= { count: 0, weighted: 0, p99: 0 });
          into.count += r.count;
          into.weighted += r.mean_ms * r.count;
          into.p99 = Math.max(into.p99, r.p99_at_most_ms ?? Infinity);
        }
      }
      const cellOf = ([label]) => {
        const m = merged[label];
        const client = s.endpoints && s.endpoints[label];
        return m ? `${(m.weighted / m.count).toFixed(1)} / ≤ ${m.p99} (${client ? client.p99 : '–'})` : '–';
      };
      lines.push(`| ${s.drivers.toLocaleString('en-US')} | ${ENDPOINTS.map(cellOf).join(' | ')} |`);
    }
  }
  return lines;
}

/** p99 (log scale, ms) against D (log scale): the worst endpoint and ride_requested, per mode. */
function svg(capacity, { width = 760, height = 420 } = {}) {
  const series = [];
  const colours = { 1: '#1565c0', 2: '#c62828' };
  for (const [n, mode] of Object.entries(capacity.modes)) {
    if (!mode.steps || !mode.steps.length) continue;
    const measured = mode.steps.filter((s) => !s.skipped);
    if (!measured.length) continue;
    const worst = measured.map((s) => [s.drivers, Math.max(0, ...Object.values(s.endpoints || {}).map((e) => e.p99 || 0))]);
    const rr = measured.map((s) => [s.drivers, (s.ride_requested && s.ride_requested.p99) || 0]);
    series.push({ label: `${modeLabel(n)}: worst endpoint p99`, points: worst, colour: colours[n] || '#555', dash: '' });
    series.push({ label: `${modeLabel(n)}: ride_requested p99`, points: rr, colour: colours[n] || '#555', dash: '6 4' });
  }
  const margin = { left: 60, right: 20, top: 40, bottom: 110 };
  const [xMin, xMax, yMin, yMax] = [500, 25_000, 1, 5000];
  const lx = (v) => margin.left + ((Math.log10(v) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin))) * (width - margin.left - margin.right);
  const ly = (v) =>
    height -
    margin.bottom -
    ((Math.log10(Math.min(yMax, Math.max(yMin, v))) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * (height - margin.top - margin.bottom);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="14">City capacity: p99 against online drivers D (log–log; above 5 s drawn at 5 s)</text>`,
  ];
  for (const t of [1, 10, 50, 100, 1000, 5000]) {
    const dashed = t === 50 || t === 100;
    out.push(
      `<line x1="${margin.left}" x2="${width - margin.right}" y1="${ly(t).toFixed(1)}" y2="${ly(t).toFixed(1)}" stroke="${dashed ? '#2e7d32' : '#ddd'}" ${dashed ? 'stroke-dasharray="3 3"' : ''}/>`,
    );
    out.push(`<text x="${margin.left - 6}" y="${(ly(t) + 4).toFixed(1)}" text-anchor="end">${t}${dashed ? ' ms' : ''}</text>`);
  }
  for (const d of [1000, 2000, 5000, 10_000, 20_000]) {
    out.push(`<line x1="${lx(d).toFixed(1)}" x2="${lx(d).toFixed(1)}" y1="${margin.top}" y2="${height - margin.bottom}" stroke="#eee"/>`);
    out.push(`<text x="${lx(d).toFixed(1)}" y="${height - margin.bottom + 16}" text-anchor="middle">${d.toLocaleString('en-US')}</text>`);
  }
  out.push(
    `<text x="${width / 2}" y="${height - margin.bottom + 34}" text-anchor="middle">online drivers D (heartbeat / 5 s, nearby / 10 s, a socket each; D/1000 bookings / s)</text>`,
  );
  out.push(`<text x="${margin.left - 45}" y="${margin.top - 8}">p99 ms</text>`);
  series.forEach((s, i) => {
    const pts = s.points.map(([d, v]) => `${lx(d).toFixed(1)},${ly(v).toFixed(1)}`).join(' ');
    out.push(`<polyline points="${pts}" fill="none" stroke="${s.colour}" stroke-width="2" ${s.dash ? `stroke-dasharray="${s.dash}"` : ''}/>`);
    for (const [d, v] of s.points) out.push(`<circle cx="${lx(d).toFixed(1)}" cy="${ly(v).toFixed(1)}" r="3" fill="${s.colour}"/>`);
    const y = height - margin.bottom + 52 + (i % 2) * 16 + Math.floor(i / 2) * 0;
    const x = margin.left + Math.floor(i / 2) * 330;
    out.push(
      `<line x1="${x}" x2="${x + 26}" y1="${y - 4}" y2="${y - 4}" stroke="${s.colour}" stroke-width="2" ${s.dash ? `stroke-dasharray="${s.dash}"` : ''}/>`,
    );
    out.push(`<text x="${x + 32}" y="${y}">${esc(s.label)}</text>`);
  });
  out.push(`<text x="${margin.left}" y="${height - 10}" fill="#2e7d32">dotted green: the targets, 50 ms (every endpoint) and 100 ms (ride_requested)</text>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

const WRITES = ENDPOINTS.slice(2);
const SHORT = Object.fromEntries(ENDPOINTS);

/** The slowest ride write of a step (book, bid, accept, status, cancel) and which it was. */
function worstWrite(s) {
  const e = s.endpoints || {};
  const measured = WRITES.filter(([label]) => e[label] && e[label].p99 !== undefined).map(([label]) => [label, e[label].p99]);
  if (!measured.length) return s.ride_writes_p99 === undefined ? '–' : s.ride_writes_p99.toLocaleString('en-US');
  const [label, p99] = measured.reduce((a, b) => (b[1] > a[1] ? b : a));
  return `${p99.toLocaleString('en-US')} (${SHORT[label]})`;
}

/** "held 2,000 drivers", or which steps were run when none held. */
function heldText(mode) {
  if (mode.largest_held) return `held ${mode.largest_held.toLocaleString('en-US')} drivers`;
  const run = (mode.steps || []).filter((s) => !s.skipped).map((s) => s.drivers.toLocaleString('en-US'));
  return run.length ? `no step held (steps run: ${run.join(', ')} drivers)` : 'no step ran';
}

/** BENCHMARKS.md's section: what a step is and holds, one compact row per step, the plot (docs/capacity-p99.svg). */
function capacityCompactLines(capacity, run) {
  const lines = [
    '## City capacity',
    '',
    'The largest number D of online drivers one instance holds, then two instances over Redis. Each step seeds D approved drivers and',
    'the passengers through SQL, starts fresh instances and lets 2 bench/capacity-worker.js processes play the city through the public',
    'API: every driver holds a WebSocket, heartbeats every 5 s and polls nearby (5 km) every 10 s from a position in the 67 × 67 km',
    'city; passengers book D/1000 rides a second; a driver told of a ride while free bids on it, the passenger accepts the first bid,',
    'the driver carries it to completion 2 s a step; a ride without a bid in 20 s is cancelled. After an 8 s warm-up it measures 20 s.',
    'A step holds (issue 27) when heartbeat and nearby p99 are ≤ 50 ms, every ride write (book, bid, accept, status) and ride_requested',
    '(arrival − the booking request being sent) p99 ≤ 100 ms and nothing failed. p99 in ms as the clients see them; CPU in % of one core over the window (service: all instances, with its CPU per',
    "request of every kind); pool wait and event loop from each instance's /metrics. The service, PostgreSQL and the load generators",
    "share the machine's 2 cores, as they would not in production.",
    'Reproduce: `BENCH_CITY=capacity BENCH_ONLY=none npm run bench` (steps 5,000, 10,000 and 15,000 by default, `BENCH_CAPACITY_STEPS` to choose, `BENCH_CAPACITY_ALL=1` to go',
    "on past the first step that does not hold, `BENCH_CAPACITY_MODES=1` for one instance only); every endpoint's p99 per step:",
    '`node bench/lib/capacity-report.js bench/results/latest.json`.',
  ];
  for (const [n, mode] of Object.entries(capacity.modes)) {
    lines.push('', `### ${modeLabel(n)} (run ${run}): ${mode.skipped ? `skipped, ${mode.skipped}` : heldText(mode)}`, '');
    if (mode.skipped) continue;
    lines.push(
      '| D | held | heartbeat / nearby p99 | worst ride write p99 | ride_requested p99 | service CPU (µs/request) | database CPU | generators CPU | pool wait mean ms | event loop p99 / max ms |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const s of mode.steps) {
      if (s.skipped) {
        lines.push(`| ${s.drivers.toLocaleString('en-US')} | skipped: ${s.skipped} | | | | | | | | |`);
        continue;
      }
      const e = s.endpoints || {};
      const p99 = (label) => cell(e[label] && e[label].p99 !== undefined ? e[label].p99.toLocaleString('en-US') : undefined);
      const loops = (s.event_loop || []).filter(Boolean);
      const held = s.held ? 'yes' : s.errors ? `no (${s.errors} errors)` : 'no';
      lines.push(
        `| ${s.drivers.toLocaleString('en-US')} | ${held} | ${p99(ENDPOINTS[0][0])} / ${p99(ENDPOINTS[1][0])} | ${worstWrite(s)} | ${cell(s.ride_requested && s.ride_requested.p99 !== null ? s.ride_requested.p99.toLocaleString('en-US') : undefined)} | ${s.service_cpu_percent} % (${cell(s.service_cpu_us_per_request)}) | ${s.database_cpu_percent === undefined ? '–' : `${s.database_cpu_percent} %`} | ${s.clients_cpu_percent === undefined ? '–' : `${s.clients_cpu_percent} %`} | ${loops.map((l) => cell(l.pool_wait_mean_ms)).join(', ') || '–'} | ${loops.map((l) => `${l.p99_ms} / ${l.max_ms}`).join(', ') || '–'} |`,
      );
    }
  }
  lines.push('', '![p99 against online drivers](docs/capacity-p99.svg)', '');
  return lines;
}

module.exports = { capacityMarkdown: markdown, capacityCompactLines, capacitySvg: svg, heldText };

if (require.main === module) {
  const [input = 'bench/results/latest.json', output] = process.argv.slice(2);
  const report = JSON.parse(readFileSync(input, 'utf8'));
  if (!report.capacity) throw new Error(`${input} has no capacity figures (BENCH_CITY=capacity)`);
  process.stdout.write(`${[markdown(report.capacity), ...serverLines(report.capacity)].join('\n')}\n`);
  if (output) writeFileSync(output, svg(report.capacity));
}
