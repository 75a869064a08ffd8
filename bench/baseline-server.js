'use strict';
// The baseline: bare Fastify, one route returning a small JSON, no logging. Our service's hot
// paths are reported as a ratio of this server's requests per second, measured in the same run.
const { bareServer, serve } = require('./lib/bare-server');

serve(bareServer());
