'use strict';
/** Nearest-rank percentile of an ascending-sorted list (p in 0..100); undefined for an empty list. */
function percentile(sorted, p) {
  if (sorted.length === 0) return undefined;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Latency samples per key (endpoint or event type), summarised as count and p50/p95/p99/max. */
class LatencyBook {
  constructor() {
    this.samples = new Map();
  }

  add(key, ms) {
    if (!this.samples.has(key)) this.samples.set(key, []);
    this.samples.get(key).push(ms);
  }

  summary() {
    return [...this.samples.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, values]) => {
        const sorted = [...values].sort((x, y) => x - y);
        return {
          key,
          count: sorted.length,
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          p99: percentile(sorted, 99),
          max: sorted[sorted.length - 1],
        };
      });
  }
}

function formatTable(rows) {
  const header = ['', 'count', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'];
  const cells = rows.map((r) => [r.key, String(r.count), ...[r.p50, r.p95, r.p99, r.max].map((v) => (v === undefined ? '-' : v.toFixed(1)))]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  return [line(header), ...cells.map(line)].join('\n');
}

module.exports = { percentile, LatencyBook, formatTable };
