'use strict';
// The baseline: bare Fastify, one route returning a small JSON, no logging. Our service's hot
// paths are reported as a ratio of this server's requests per second, measured in the same run.
const fastify = require('fastify')({ logger: false });

fastify.get('/baseline', async () => ({ status: 'ok', service: 'baseline', at: new Date().toISOString() }));

fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(
  () => process.stdout.write('ready\n'),
  (err) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  },
);
process.on('SIGTERM', () => fastify.close().then(() => process.exit(0)));
