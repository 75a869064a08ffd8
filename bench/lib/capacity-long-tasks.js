'use strict';
/**
 * What blocks a capacity instance's event loop: reads a V8 .cpuprofile (the instance run with
 * BENCH_SERVICE_ARGS="--cpu-prof --cpu-prof-dir=DIR"), cuts the timeline into busy stretches (samples
 * between two idle ones) and, for the stretches longer than a threshold, sums self time by function
 * and names the outermost JavaScript frame each stretch began in (a timer, a socket read, ...).
 *   node bench/lib/capacity-long-tasks.js FILE.cpuprofile [threshold ms, default 30]
 * Wall-clock stretches: on a shared machine a stretch also holds the time the process was not
 * scheduled, so it is read with the busy CPU it contains (sampled ms).
 */
const { readFileSync } = require('node:fs');

function analyse(profile, thresholdMs) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const name = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
  const idle = (n) => ['(idle)', '(program)'].includes(n.callFrame.functionName);
  const outermost = (id) => {
    // The frame just below (root): where the event loop entered JavaScript.
    let cur = id;
    let last = id;
    while (parent.has(cur) && byId.get(parent.get(cur)).callFrame.functionName !== '(root)') {
      last = parent.get(cur);
      cur = last;
    }
    return byId.get(last);
  };
  const stretches = [];
  let current;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    t += profile.timeDeltas[i];
    const node = byId.get(profile.samples[i]);
    const delta = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (idle(node)) {
      if (current) stretches.push(current);
      current = undefined;
      continue;
    }
    current ??= { startUs: t, ms: 0, self: new Map(), entry: name(outermost(node.id)) };
    current.ms += delta;
    const key = node.callFrame.functionName === '(garbage collector)' ? '(garbage collector)' : name(node);
    current.self.set(key, (current.self.get(key) || 0) + delta);
    current.endUs = t;
  }
  if (current) stretches.push(current);
  const long = stretches.filter((s) => (s.endUs - s.startUs) / 1000 >= thresholdMs);
  const totals = new Map();
  for (const s of long) for (const [k, v] of s.self) totals.set(k, (totals.get(k) || 0) + v);
  return {
    stretches: stretches.length,
    long: long.length,
    longest: long
      .sort((a, b) => b.endUs - b.startUs - (a.endUs - a.startUs))
      .slice(0, 8)
      .map((s) => ({
        wall_ms: Math.round((s.endUs - s.startUs) / 1000),
        sampled_ms: Math.round(s.ms),
        at_s: Math.round((s.startUs - profile.startTime) / 1e5) / 10,
        entry: s.entry,
        top: [...s.self]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([k, v]) => `${Math.round(v)} ms ${k}`),
      })),
    self_in_long: [...totals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([k, v]) => `${Math.round(v)} ms ${k}`),
  };
}

if (require.main === module) {
  const [file, threshold] = process.argv.slice(2);
  const out = analyse(JSON.parse(readFileSync(file, 'utf8')), Number(threshold || 30));
  process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
}

module.exports = { analyse };
