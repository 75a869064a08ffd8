'use strict';
/** Starting and stopping the built service (dist/) as a child process, for the demo and the soak. */
const { spawn } = require('node:child_process');
const { closeSync, openSync } = require('node:fs');
const { createServer } = require('node:net');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'src', 'main.js');
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(base, child, logPath, seconds = 120) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}; log: ${logPath}`);
    try {
      if ((await fetch(`${base}/health/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the service was not ready within ${seconds} s; log: ${logPath}`);
}

/**
 * Spawns `node dist/src/main.js` on a free port with `env` (PORT and HOST added), its output in
 * logPath. Returns {base, port, child, ready, stop}: ready() waits for /health/ready, stop() sends
 * SIGTERM (graceful shutdown) and SIGKILLs after 20 s.
 */
async function startService(env, logPath) {
  const port = await freePort();
  // The service writes its log straight to the file: through a pipe, a simulator too busy to drain
  // it would block the service's (synchronous) log writes and stall its event loop.
  const log = openSync(logPath, 'a');
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', log, log] });
  closeSync(log);
  const exited = new Promise((r) => child.on('exit', (code, signal) => r(code ?? signal)));
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    port,
    child,
    logPath,
    ready: (seconds) => waitUntilReady(base, child, logPath, seconds),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 20_000))]);
      if (t === 'timeout') child.kill('SIGKILL');
    },
  };
}

module.exports = { ROOT, CLI, freePort, waitUntilReady, startService };
