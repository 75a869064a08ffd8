'use strict';
/**
 * The built app (dist/: `npm run build` first) on a database of its own, the way the single-purpose
 * benches run it: as a process of its own (startBuilt), or inside the bench's process through
 * createApp (bootBuiltApp), where a bench needs the app's own objects.
 */
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { Client } = require('pg');
const { benchServiceEnv } = require('./service-env');

const ROOT = join(__dirname, '..', '..');
const ADMIN_URL = process.env.BENCH_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A new database `${prefix}_${pid}` on BENCH_ADMIN_URL's server. `admin` stays connected to the
 * server until drop(), which removes the database (unless BENCH_KEEP=1) and closes it.
 */
async function freshDatabase(prefix) {
  const name = `${prefix}_${process.pid}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const drop = async () => {
    if (process.env.BENCH_KEEP !== '1') await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    else process.stdout.write(`kept database ${name}\n`);
    await admin.end();
  };
  return { name, url: url.toString(), admin, drop };
}

/** Resolves once check() answers true; an exception counts as "not yet". */
async function until(check, seconds, what, everyMs = 50) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${what} not within ${seconds} s`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Resolves once GET `url` answers 2xx. */
const untilOk = (url, seconds, what) => until(async () => (await fetch(url)).ok, seconds, what);

/**
 * `node [nodeArgs] dist/src/main.js` of the checkout `root` with `env` (benchServiceEnv's).
 * ready(path) resolves once the service answers GET path 2xx, and fails at once if it exits first;
 * stop() sends SIGTERM and resolves when the process has exited.
 */
function startBuilt(root, env, { nodeArgs = [], stdio = ['ignore', 'ignore', 'inherit'] } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'dist', 'src', 'main.js')], { cwd: root, env, stdio });
  let exitCode;
  const exited = new Promise((r) => child.once('exit', (code, signal) => r((exitCode = code ?? signal))));
  const base = `http://127.0.0.1:${env.PORT}`;
  const ready = async (path = '/health/ready', seconds = 120) => {
    await until(async () => exitCode !== undefined || (await fetch(`${base}${path}`)).ok, seconds, `${root}: ${path}`);
    if (exitCode !== undefined) throw new Error(`${root}: the service exited (${exitCode}) before ${path} answered`);
  };
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  return { child, base, exited, ready, stop };
}

/**
 * This checkout's app inside this process on a fresh database (migrated at start-up), Redis and the
 * OpenAPI document off; close() closes the app and drops the database.
 */
async function bootBuiltApp(prefix) {
  const database = await freshDatabase(prefix);
  let app;
  try {
    const { createApp } = require(join(ROOT, 'dist/src/bootstrap/create-app'));
    const { AppConfig } = require(join(ROOT, 'dist/src/config/app-config'));
    app = await createApp(AppConfig.fromEnv(benchServiceEnv({ databaseUrl: database.url, port: 0, REDIS_URL: '' })), { openApi: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  } catch (err) {
    if (app) await app.close().catch(() => undefined);
    await database.drop();
    throw err;
  }
  const close = async () => {
    await app.close();
    await database.drop();
  };
  return { app, database, close };
}

module.exports = { ROOT, ADMIN_URL, freshDatabase, until, untilOk, startBuilt, bootBuiltApp };
