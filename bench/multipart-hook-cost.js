'use strict';
// Cost per request of @fastify/multipart's hooks on a route that takes no upload (a heartbeat-like JSON PUT):
// bare Fastify, the plugin app-wide as it comes (plus the 415 preValidation hook main had), and the plugin
// confined to upload routes (src/bootstrap/multipart-uploads.ts, from dist/). Each variant runs in its own
// process; autocannon runs here, the variants alternate in every round, and each is reported as a ratio
// of the bare server measured in the same round (robust to load that comes and goes on the machine).
// Run: node bench/multipart-hook-cost.js  (MHC_ROUNDS, default 3; MHC_DURATION s, default 3; builds dist/ if stale)
const { fork } = require('node:child_process');
const { join } = require('node:path');

const VARIANTS = ['bare', 'app-wide', 'confined'];
const BODY = JSON.stringify({ lat: 52.52, lng: 13.405, heading: 90, speed: 8.5 });

async function serve(variant) {
  const fastify = require('fastify')({ logger: false });
  if (variant === 'app-wide') {
    const fp = require('fastify-plugin');
    await fastify.register(
      fp(async (instance) => {
        await instance.register(require('@fastify/multipart'), { limits: { files: 1, parts: 10 } });
        instance.addHook('preValidation', (request, reply, done) => {
          if (!request.isMultipart() || request.routeOptions.config.multipart === true) return done();
          reply.code(415).send({ statusCode: 415 });
        });
      }),
    );
  }
  if (variant === 'confined') require(join(__dirname, '..', 'dist', 'src', 'bootstrap', 'multipart-uploads.js')).multipartUploads(fastify);
  fastify.put('/location', (request, reply) => {
    reply.code(204).send();
  });
  fastify.post('/upload', { config: { multipart: true } }, async (request) => {
    let n = 0;
    for await (const part of request.parts()) if (part.file) for await (const chunk of part.file) n += chunk.length;
    return { bytes: n };
  });
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', () => process.send({ cpu: process.cpuUsage() }));
  process.send({ port: fastify.server.address().port });
}

/** The server's own CPU time per request: unlike req/s, barely moved by other load on the machine. */
function cpuOf(child) {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m.cpu.user + m.cpu.system));
    child.send('cpu');
  });
}

async function measure({ child, port }, duration) {
  const before = await cpuOf(child);
  const autocannon = require('autocannon');
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/location`,
    method: 'PUT',
    body: BODY,
    headers: { 'content-type': 'application/json' },
    connections: 50,
    duration,
  });
  if (result.non2xx || result.errors) throw new Error(`failures: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, cpuUs: ((await cpuOf(child)) - before) / result.requests.total };
}

async function main() {
  require('../scripts/build-if-stale').ensureBuilt();
  const rounds = Number(process.env.MHC_ROUNDS || 3);
  const duration = Number(process.env.MHC_DURATION || 3);
  const children = {};
  for (const variant of VARIANTS) {
    const child = fork(__filename, ['--serve', variant]);
    children[variant] = { child, port: await new Promise((resolve) => child.once('message', (m) => resolve(m.port))) };
  }
  try {
    for (const variant of VARIANTS) await measure(children[variant], 1);
    const ratios = { 'app-wide': [], confined: [] };
    const cpu = { bare: [], 'app-wide': [], confined: [] };
    for (let round = 0; round < rounds; round++) {
      // Alternate the order so no variant always runs in the same slot of a round.
      const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
      const rps = {};
      for (const variant of order) {
        const m = await measure(children[variant], duration);
        rps[variant] = m.rps;
        cpu[variant].push(m.cpuUs);
      }
      for (const variant of ['app-wide', 'confined']) ratios[variant].push(rps[variant] / rps.bare);
      const us = (v) => cpu[v][round].toFixed(1);
      console.log(
        `round ${round + 1}: bare ${rps.bare.toFixed(0)} req/s ${us('bare')} µs CPU/req; app-wide ${(rps['app-wide'] / rps.bare).toFixed(2)} ${us('app-wide')} µs; confined ${(rps.confined / rps.bare).toFixed(2)} ${us('confined')} µs`,
      );
    }
    const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    console.log(
      `server CPU per request, median: bare ${median(cpu.bare).toFixed(1)} µs, app-wide ${median(cpu['app-wide']).toFixed(1)} µs, confined ${median(cpu.confined).toFixed(1)} µs`,
    );
    for (const [variant, list] of Object.entries(ratios)) {
      console.log(`${variant}: ${Math.min(...list).toFixed(2)}-${Math.max(...list).toFixed(2)} of bare (median ${median(list).toFixed(2)})`);
    }
  } finally {
    for (const { child } of Object.values(children)) child.kill();
  }
}

if (process.argv[2] === '--serve') serve(process.argv[3]);
else
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
