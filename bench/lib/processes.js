'use strict';
/**
 * The bench's child processes (the service, the ceiling, instances) and its database: each started
 * process is stopped at the end, and a database the bench created is dropped unless BENCH_KEEP=1.
 */
const { execFileSync, spawn } = require('node:child_process');
const { Client } = require('pg');

function createProcesses({ root, adminUrl }) {
  const ROOT = root;
  const ADMIN_URL = adminUrl;
  const children = [];
  let freshDatabase; // { name } when the bench created the database: dropped at the end

  function startProcess(name, args, env) {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    const handle = { name, child, exited, output: () => output };
    children.push(handle);
    return handle;
  }

  async function waitUntilLive(handle, url, seconds = 90) {
    const deadline = Date.now() + seconds * 1000;
    let exitCode;
    handle.exited.then((code) => (exitCode = code));
    while (Date.now() < deadline) {
      if (exitCode !== undefined) throw new Error(`${handle.name} exited with ${exitCode}:\n${handle.output().slice(-3000)}`);
      try {
        if ((await fetch(url)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`${handle.name} did not answer ${url} within ${seconds} s`);
  }

  async function stopAll() {
    for (const handle of children.splice(0)) {
      if (handle.child.exitCode === null) {
        handle.child.kill('SIGTERM');
        await Promise.race([handle.exited, new Promise((r) => setTimeout(r, 15_000))]);
        if (handle.child.exitCode === null) handle.child.kill('SIGKILL');
      }
    }
    if (freshDatabase && process.env.BENCH_KEEP !== '1') {
      const admin = new Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${freshDatabase.name} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
  }

  /** The database the service uses: DATABASE_URL, or a fresh one on the machine's PostgreSQL. */
  async function provisionDatabase() {
    if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
    const name = `rh_bench_${process.pid}`;
    const admin = new Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    freshDatabase = { name };
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    return url.toString();
  }

  return { children, startProcess, waitUntilLive, stopAll, provisionDatabase };
}

function gitCommit(ROOT) {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

module.exports = { createProcesses, gitCommit };
