#!/usr/bin/env node
'use strict';
/**
 * npm run simulate -- [--url http://127.0.0.1:3000] [--instances URL,URL] [--passengers 12] [--drivers 8]
 *   [--minutes 1] [--seed 1] [--otp 123456] [--credit-cmd "node dist/src/cli/main.js wallet:credit"]
 *   [--ttl-minutes 1] [--heartbeat-seconds 3] [--pause-seconds 4] [--capture file.json] [--json file.json]
 *
 * A city of passengers and drivers against a running service (NODE_ENV=development with
 * OTP_DEV_FIXED_CODE), through the public HTTP API and WebSocket only. Exits 1 on any contract violation.
 * --otp: the service's OTP_DEV_FIXED_CODE (default: that variable in this shell, else 123456).
 * --heartbeat-seconds: a driver's location interval; --pause-seconds: the longest pause (at least 1 s)
 * between a passenger's rides.
 */
const { writeFileSync } = require('node:fs');
const { parseArgs } = require('./lib/args');
const { runSimulation } = require('./lib/run');
const { formatSummary } = require('./lib/report');
const { createCapture } = require('./lib/capture');

const SPEC = {
  url: 'string',
  instances: 'string',
  passengers: 'number',
  drivers: 'number',
  minutes: 'number',
  seed: 'number',
  otp: 'string',
  'credit-cmd': 'string',
  'ttl-minutes': 'number',
  'heartbeat-seconds': 'number',
  'pause-seconds': 'number',
  capture: 'string',
  json: 'string',
  quiet: 'boolean',
};

async function simulateFromArgs(argv, extra = {}) {
  const a = parseArgs(argv, SPEC);
  const bases = (a.instances ? a.instances.split(',') : [a.url || 'http://127.0.0.1:3000']).map((u) => u.trim().replace(/\/+$/, '')).filter(Boolean);
  const capture = a.capture ? createCapture() : undefined;
  const result = await runSimulation({
    bases,
    passengers: a.passengers ?? 12,
    drivers: a.drivers ?? 8,
    minutes: a.minutes ?? 1,
    seed: a.seed ?? 1,
    // The code a development service accepts for everyone: the flag, else the same variable the service reads.
    otp: a.otp ?? process.env.OTP_DEV_FIXED_CODE ?? '123456',
    creditCmd: a['credit-cmd'],
    ttlMinutes: a['ttl-minutes'] ?? 1,
    heartbeatMs: (a['heartbeat-seconds'] ?? 3) * 1000,
    pauseMs: (a['pause-seconds'] ?? 4) * 1000,
    progress: !a.quiet,
    capture,
    ...extra,
  });
  if (capture) writeFileSync(a.capture, JSON.stringify(capture.data, null, 2));
  if (a.json) writeFileSync(a.json, JSON.stringify(result, null, 2));
  return result;
}

if (require.main === module) {
  simulateFromArgs(process.argv.slice(2)).then(
    (result) => {
      process.stdout.write(`${formatSummary(result)}\n`);
      if (result.violations.some((v) => /POST \/auth\/verify-otp .*→ 400/.test(v.message))) {
        process.stderr.write(
          'simulate: the service refused the OTP code. Start it in development with a fixed code and pass the same code, e.g.\n' +
            '  OTP_DEV_FIXED_CODE=123456 npm start\n  npm run simulate -- --url http://127.0.0.1:3000 --otp 123456\n',
        );
      }
      process.exit(result.violations.length ? 1 : 0);
    },
    (err) => {
      process.stderr.write(`simulate: ${err.stack || err.message}\n`);
      process.exit(2);
    },
  );
}

module.exports = { simulateFromArgs };
