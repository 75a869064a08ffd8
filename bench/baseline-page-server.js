'use strict';
// The baseline for nearby: bare Fastify sending a fixed page's bytes (PAGE_FILE), gzip ones when the
// request accepts gzip (PAGE_GZIP_FILE), with the same content type; no logging, no auth, no lookup.
// GET /baseline is the small JSON of baseline-server.js (the ceiling a 304 is compared with).
const { readFileSync } = require('node:fs');
const { bareServer, serve } = require('./lib/bare-server');

const page = readFileSync(process.env.PAGE_FILE);
const gzipped = readFileSync(process.env.PAGE_GZIP_FILE);
const fastify = bareServer();

fastify.get('/page', (request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8');
  if (/gzip/.test(request.headers['accept-encoding'] || '')) return reply.header('content-encoding', 'gzip').send(gzipped);
  return reply.send(page);
});

serve(fastify);
