#!/usr/bin/env node
'use strict';
/**
 * npm run soak [-- --minutes 10 --passengers 500 --drivers 200 --seed 1 --instances 2 --no-build --keep-data --json file.json]
 *
 * The multi-instance soak: creates a fresh database on SOAK_ADMIN_URL (default the machine's
 * postgres://postgres@127.0.0.1:5432/postgres), starts --instances copies of the built service on it,
 * all sharing SOAK_REDIS_URL (default redis://127.0.0.1:6379) under a key prefix of their own, runs
 * the city simulation spread over them, stops them with SIGTERM, then drops the database and the
 * Redis keys (kept with --keep-data). Exits 1 on any contract violation or any 5xx.
 *
 * The simulation comes from one IP at a rate no single user reaches, so the per-IP auth limit, the
 * OTP cool-down and the per-user booking and bid limits are off (0); everything else is the default,
 * except 1-minute ride requests swept every 5 s so that expiries happen within the run.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { startCardMoney } = require('./lib/card-money');
const { Client } = require('pg');
const Redis = require('ioredis');
const { simulateFromArgs } = require('./simulate');
const { formatSummary } = require('./lib/report');
const { CLI, startService } = require('./lib/service');
const { ensureBuilt } = require('../scripts/build-if-stale');

const OTP = '123456';
const ADMIN_URL = process.env.SOAK_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.SOAK_REDIS_URL || 'redis://127.0.0.1:6379';

function takeFlag(argv, name) {
  const i = argv.indexOf(name);
  if (i < 0) return false;
  argv.splice(i, 1);
  return true;
}

function takeValue(argv, name, fallback) {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return fallback;
  const [flag] = argv.splice(i, 1);
  return flag.includes('=') ? flag.slice(flag.indexOf('=') + 1) : argv.splice(i, 1)[0];
}

async function dropRedisKeys(prefix) {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function main(argv) {
  const args = [...argv];
  const build = !takeFlag(args, '--no-build');
  const keep = takeFlag(args, '--keep-data');
  const count = Number(takeValue(args, '--instances', '2'));
  if (!Number.isInteger(count) || count < 1) throw new Error('--instances must be a whole number of instances (1 or more)');
  const defaults = { '--passengers': '500', '--drivers': '200', '--minutes': '10' };
  for (const [flag, value] of Object.entries(defaults)) if (!args.some((a) => a.startsWith(flag))) args.push(flag, value);

  if (build) {
    ensureBuilt((line) => process.stderr.write(`soak: ${line}\n`));
  }
  const name = `soak_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${process.pid}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/${name}`;
  const temp = mkdtempSync(join(tmpdir(), 'rh-soak-'));
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    OTP_DEV_FIXED_CODE: OTP,
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
    JWT_SECRET: 'soak-secret-soak-secret-soak-secret-0123',
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL,
    REDIS_KEY_PREFIX: name,
    AUTH_RATE_LIMIT_PER_IP_PER_MINUTE: '0',
    OTP_RESEND_COOLDOWN_SECONDS: '0',
    OTP_MAX_PER_HOUR: '0',
    BOOKING_RATE_LIMIT_PER_HOUR: '0',
    BID_RATE_LIMIT_PER_MINUTE: '0',
    SHARED_RIDE_RATE_LIMIT_PER_IP_PER_MINUTE: '0',
    // A busy instance holds each connection longer (a transaction's statements wait on its event
    // loop): more than the default 10, so that waits for a connection stay short.
    DB_POOL_SIZE: process.env.DB_POOL_SIZE || '30',
    DRIVER_AUTO_APPROVE: 'true',
    RIDE_REQUEST_TTL_MINUTES: '1',
    RIDE_EXPIRY_SWEEP_SECONDS: '5',
    PLATFORM_COMMISSION_PERCENT: '0',
    UPLOAD_DIR: join(temp, 'uploads'),
  };
  // As in the demo: some passengers pay by card against the local Stripe fake, every cancel of an
  // accepted ride is late (it pays the fee) and some drivers report a no-show (CONTRACT §12).
  const cards = await startCardMoney(env);
  const services = [];
  // However the soak ends, no instance outlives it.
  process.on('exit', () => services.forEach((s) => s.child.kill('SIGTERM')));
  // Interrupted: stop the instances (their data stays for a look; the names are printed above).
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      Promise.all(services.map((s) => s.stop())).finally(() => process.exit(130));
    });
  }
  let result;
  try {
    // Started together on purpose: concurrent start-ups must migrate the new database once.
    for (let i = 0; i < count; i++) services.push(await startService(env, join(temp, `service-${i + 1}.log`)));
    process.stderr.write(
      `soak: ${count} instances (${services.map((s) => s.base).join(', ')}) on database ${name}, Redis ${REDIS_URL} (keys ${name}:*); logs in ${temp}\n`,
    );
    await Promise.all(services.map((s) => s.ready()));
    result = await simulateFromArgs([...args, '--instances', services.map((s) => s.base).join(','), '--otp', OTP, '--ttl-minutes', '1'], {
      creditCmd: `${process.execPath} ${CLI} wallet:credit`,
      creditEnv: { ...env, LOG_LEVEL: 'warn' },
      operatorCmd: `${process.execPath} ${CLI} operator:add`,
      cliEnv: { ...env, LOG_LEVEL: 'warn' },
      drainMs: 30_000,
      ...cards.simOptions,
    });
    cards.checkLedger(result);
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await cards.close();
  }
  process.stdout.write(`${formatSummary(result)}\n`);
  const failed = result.violations.length > 0 || result.counters.serverErrors > 0;
  if (failed || keep) {
    process.stdout.write(`Kept: database ${name}, Redis keys ${name}:*, service logs in ${temp}\n`);
  } else {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropRedisKeys(`${name}:`);
    rmSync(temp, { recursive: true, force: true });
  }
  await admin.end();
  return failed ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`soak: ${err.stack || err.message}\n`);
      process.exit(2);
    },
  );
}
