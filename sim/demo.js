#!/usr/bin/env node
'use strict';
/**
 * npm run demo [-- --minutes 1.25 --passengers 12 --drivers 8 --seed 1 --no-build --capture file.json]
 *
 * Builds, starts the service on a temporary embedded PostgreSQL (development mode, fixed OTP, auth
 * limits off, 1-minute ride requests swept every 5 s), runs a simulation against it, stops the service
 * with SIGTERM and writes demo-map.svg. Exits 1 on any contract violation. With DATABASE_URL set the
 * service uses that database instead. About two minutes with the defaults (it says so first).
 */
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { simulateFromArgs } = require('./simulate');
const { formatSummary } = require('./lib/report');
const { renderMap } = require('./lib/svg');
const { ROOT, CLI, startService } = require('./lib/service');
const { ensureBuilt } = require('../scripts/build-if-stale');
const { startCardMoney } = require('./lib/card-money');

const OTP = '123456';
// Besides the minutes of ride traffic: the service's start, the sign-ups, the last events and the wallet checks.
const OVERHEAD_SECONDS = 45;

/** A simulator flag's value (`--name value` or `--name=value`), or undefined. */
function flag(args, name) {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return args[i].includes('=') ? args[i].slice(args[i].indexOf('=') + 1) : args[i + 1];
}

function plan(args) {
  const minutes = Number(flag(args, 'minutes'));
  const total = Math.round((minutes * 60 + OVERHEAD_SECONDS) / 60);
  const duration = total <= 1 ? 'about a minute' : total === 2 ? 'about two minutes' : `about ${total} minutes`;
  return (
    `demo: takes ${duration} (plus a build the first time): ${flag(args, 'passengers')} passengers and ${flag(args, 'drivers')} drivers ` +
    `sign up, book, bid, ride, chat, tip and rate (one raises an SOS an operator resolves) for ${minutes * 60} s in a simulated Berlin against a fresh service; then a summary and demo-map.svg\n`
  );
}

async function main(argv) {
  const own = { build: !argv.includes('--no-build'), keep: argv.includes('--keep-data') };
  const simArgs = argv.filter((a) => a !== '--no-build' && a !== '--keep-data');
  if (!simArgs.some((a) => a.startsWith('--passengers'))) simArgs.push('--passengers', '12');
  if (!simArgs.some((a) => a.startsWith('--drivers'))) simArgs.push('--drivers', '8');
  if (!simArgs.some((a) => a.startsWith('--minutes'))) simArgs.push('--minutes', '1.25');
  process.stderr.write(plan(simArgs));

  if (own.build) {
    ensureBuilt((line) => process.stderr.write(`demo: ${line}\n`));
  }
  const temp = mkdtempSync(join(tmpdir(), 'rh-demo-'));
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    OTP_DEV_FIXED_CODE: OTP,
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
    JWT_SECRET: 'demo-secret-demo-secret-demo-secret-0123',
    AUTH_RATE_LIMIT_PER_IP_PER_MINUTE: '0',
    SHARED_RIDE_RATE_LIMIT_PER_IP_PER_MINUTE: '0',
    OTP_RESEND_COOLDOWN_SECONDS: '0',
    OTP_MAX_PER_HOUR: '0',
    DRIVER_AUTO_APPROVE: 'true',
    RIDE_REQUEST_TTL_MINUTES: '1',
    RIDE_EXPIRY_SWEEP_SECONDS: '5',
    PLATFORM_COMMISSION_PERCENT: '0',
    UPLOAD_DIR: join(temp, 'uploads'),
  };
  const cards = await startCardMoney(env);
  if (!process.env.DATABASE_URL) env.EMBEDDED_PG_DATA_DIR = join(temp, 'pg');
  const logPath = join(temp, 'service.log');
  const service = await startService(env, logPath);
  const base = service.base;
  let result;
  try {
    process.stderr.write(`demo: starting the service on ${base} (data in ${temp})…\n`);
    await service.ready();
    result = await simulateFromArgs([...simArgs, '--url', base, '--otp', OTP, '--ttl-minutes', '1'], {
      creditCmd: `${process.execPath} ${CLI} wallet:credit`,
      creditEnv: { ...env, LOG_LEVEL: 'warn' },
      // An operator watches for SOS alerts; one passenger raises one and the operator resolves it.
      operatorCmd: `${process.execPath} ${CLI} operator:add`,
      cliEnv: { ...env, LOG_LEVEL: 'warn' },
      drainMs: 30_000,
      ...cards.simOptions,
    });
    cards.checkLedger(result);
  } finally {
    await service.stop();
    await cards.close();
  }
  const svgPath = join(ROOT, 'demo-map.svg');
  writeFileSync(
    svgPath,
    renderMap({
      ...result.map,
      title: `Simulated city — ${result.counters.completed} completed, ${result.counters.cancelled} cancelled, ${result.counters.expired} expired`,
    }),
  );
  process.stdout.write(`${formatSummary(result)}\n\nMap: ${svgPath}\n`);
  if (result.violations.length) process.stdout.write(`Service log: ${logPath}\n`);
  else if (!own.keep) rmSync(temp, { recursive: true, force: true });
  return result.violations.length ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`demo: ${err.stack || err.message}\n`);
      process.exit(2);
    },
  );
}
