'use strict';
/**
 * The ceilings the service is measured against: bare Fastify, no logging, no auth, GET /baseline
 * answering a small JSON. serve() listens on PORT (127.0.0.1), prints `ready` and closes on SIGTERM.
 */
const Fastify = require('fastify');

function bareServer() {
  const fastify = Fastify({ logger: false });
  fastify.get('/baseline', async () => ({ status: 'ok', service: 'baseline', at: new Date().toISOString() }));
  return fastify;
}

function serve(fastify) {
  fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(
    () => process.stdout.write('ready\n'),
    (err) => {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    },
  );
  process.on('SIGTERM', () => fastify.close().then(() => process.exit(0)));
}

module.exports = { bareServer, serve };
