'use strict';
/**
 * node bench/merge-runs.js <id>=<results.json> …: folds narrowed runs (bench/results/latest.json of
 * `BENCH_CITY=… npm run bench`, copied aside) into bench/reference-run.json as runs <id>, then rewrites
 * BENCHMARKS.md from it (bench/report.js). Each row of a run replaces the reference's row of the same
 * name (or is added) and is marked with its run; so do the capacity, memory and start-up figures it has.
 * A run's ceiling row replaces the reference's only when the run measured hot paths (it always has one).
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { writeMarkdown, REFERENCE } = require('./report');

const reference = JSON.parse(readFileSync(REFERENCE, 'utf8'));
reference.runs = reference.runs || [];
for (const arg of process.argv.slice(2)) {
  const [id, file] = arg.split('=');
  const run = JSON.parse(readFileSync(file, 'utf8'));
  reference.runs = reference.runs.filter((r) => r.id !== id);
  reference.runs.push({
    id,
    at: run.at,
    commit: run.commit,
    command: run.command || 'npm run bench',
    node: run.node,
    cpus: run.cpus,
    cpu_model: run.cpu_model,
    database: run.database,
    redis: run.redis,
    load: run.load,
  });
  // The hot paths' rows are named by their route (`PUT /api/v1/driver/location`); the city's are not.
  const hotPaths = run.results.some((r) => r.requests_per_second !== undefined && /^(GET|POST|PUT) \/(api|health)\//.test(r.name));
  for (const row of run.results) {
    if (row.name.startsWith('ceiling') && !hotPaths) continue;
    if (row.name === 'city capacity') continue;
    const at = reference.results.findIndex((r) => r.name === row.name);
    const marked = { ...row, run: id };
    if (at >= 0) reference.results[at] = marked;
    else reference.results.push(marked);
  }
  if (run.capacity) reference.capacity = { ...run.capacity, run: id };
  if (hotPaths && run.memory && run.memory.rss_after_http_load_mb !== undefined) reference.memory = { ...run.memory, run: id };
  if (run.startup) reference.startup = { ...run.startup, run: id };
}
writeFileSync(REFERENCE, `${JSON.stringify(reference, null, 2)}\n`);
writeMarkdown(join(__dirname, '..', 'BENCHMARKS.md'), reference);
process.stdout.write(`bench/reference-run.json and BENCHMARKS.md now hold runs ${reference.runs.map((r) => r.id).join(', ')}\n`);
