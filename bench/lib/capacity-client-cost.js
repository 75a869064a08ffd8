'use strict';
/**
 * The capacity load generator's CPU per request: its raw keep-alive client (capacity-client.js)
 * against node:http with a keep-alive Agent (what it used before), on bare Fastify
 * (bench/baseline-server.js), in this process. CPU time, not wall time: robust to a busy machine.
 *   node bench/lib/capacity-client-cost.js [requests, default 30000] [concurrency, default 64]
 */
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { client } = require('./capacity-client');
const { freePort } = require('../../sim/lib/service');

function nodeHttpClient(base, maxSockets) {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  return (method, path, token) =>
    new Promise((resolve) => {
      const req = http.request({ host: url.hostname, port: url.port, method, path, headers: { authorization: `Bearer ${token}` }, agent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      });
      req.on('error', (err) => resolve({ status: 0, error: err.message }));
      req.end();
    });
}

async function run(call, requests, concurrency) {
  let sent = 0;
  let ok = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < requests) {
        sent += 1;
        const res = await call('GET', '/baseline', 'x'.repeat(180));
        if (res.status === 200 && res.body.length > 0) ok += 1;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { ok, cpu_us_per_request: Math.round(((cpu.user + cpu.system) / requests) * 10) / 10, wall_s: Math.round(performance.now() - t0) / 1000 };
}

async function main() {
  const requests = Number(process.argv[2] || 30_000);
  const concurrency = Number(process.argv[3] || 64);
  const port = await freePort();
  const server = spawn(process.execPath, [join(__dirname, '..', 'baseline-server.js')], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => server.stdout.once('data', resolve));
  const base = `http://127.0.0.1:${port}`;
  try {
    const raw = client(base, { maxSockets: concurrency });
    const nodeHttp = nodeHttpClient(base, concurrency);
    await run(raw, 3000, concurrency); // warm both up
    await run(nodeHttp, 3000, concurrency);
    const rows = [];
    for (let round = 0; round < 2; round += 1) {
      rows.push({ client: 'node:http', ...(await run(nodeHttp, requests, concurrency)) });
      rows.push({ client: 'raw (capacity-client.js)', ...(await run(raw, requests, concurrency)) });
    }
    console.table(rows);
  } finally {
    server.kill('SIGTERM');
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
