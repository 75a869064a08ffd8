import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { Metrics } from './metrics';
import { instrumentPool } from './pool-metrics';

const DASHBOARD = join(__dirname, '..', '..', '..', 'docs', 'grafana', 'ride-hailing.json');

interface Panel {
  title: string;
  targets?: Array<{ expr: string }>;
}

/** Every metric a query names: identifiers followed by a label set or a range. */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/([a-z_][a-z0-9_]*)\s*[{[]/g)].map((m) => m[1]!).filter((name) => !['by', 'rate', 'sum'].includes(name));
}

describe('the Grafana dashboard (docs/grafana/ride-hailing.json)', () => {
  it('charts only metrics the service exposes, and every metric of ours is charted', async () => {
    const metrics = new Metrics(true);
    const pool = { totalCount: 0, idleCount: 0, waitingCount: 0, options: { max: 10 }, connect: () => undefined };
    instrumentPool({ driver: { master: pool } } as unknown as DataSource, metrics);
    const exposed = new Set<string>();
    for (const metric of await metrics.registry.getMetricsAsJSON()) {
      exposed.add(metric.name);
      if (String(metric.type) === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) exposed.add(metric.name + suffix);
    }
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };
    const charted = new Set(dashboard.panels.flatMap((panel) => (panel.targets ?? []).flatMap((t) => metricNames(t.expr))));
    expect([...charted].filter((name) => !exposed.has(name))).toEqual([]);
    const ours = (await metrics.registry.getMetricsAsJSON()).map((m) => m.name).filter((name) => !/^(process|nodejs)_/.test(name));
    const chartedBase = new Set([...charted].map((name) => name.replace(/_(bucket|count|sum)$/, '')));
    expect(ours.filter((name) => !chartedBase.has(name))).toEqual([]);
    metrics.registry.clear();
  });
});
