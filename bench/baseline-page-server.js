'use strict';
// The baseline for nearby: bare Fastify sending a fixed page's bytes (PAGE_FILE), gzip ones when the
// request accepts gzip (PAGE_GZIP_FILE), with the same content type; no logging, no auth, no lookup.
// GET /baseline is the small JSON of baseline-server.js (the ceiling a 304 is compared with).
const { readFileSync } = require('node:fs');
const fastify = require('fastify')({ logger: false });

const page = readFileSync(process.env.PAGE_FILE);
const gzipped = readFileSync(process.env.PAGE_GZIP_FILE);

fastify.get('/page', (request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8');
  if (/gzip/.test(request.headers['accept-encoding'] || '')) return reply.header('content-encoding', 'gzip').send(gzipped);
  return reply.send(page);
});
fastify.get('/baseline', async () => ({ status: 'ok', service: 'baseline', at: new Date().toISOString() }));

fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(
  () => process.stdout.write('ready\n'),
  (err) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  },
);
process.on('SIGTERM', () => fastify.close().then(() => process.exit(0)));
