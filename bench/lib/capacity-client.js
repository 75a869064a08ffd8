'use strict';
// The load generator's HTTP side for the capacity scenario: keep-alive node:http (far less client
// CPU per request than fetch, which matters when the bench shares 2 cores with the service), and the
// per-endpoint record of latencies and failures of the measured window.
const http = require('node:http');
const { performance } = require('node:perf_hooks');

const now = () => performance.timeOrigin + performance.now();

function client(base, { maxSockets = 128 } = {}) {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const call = (method, path, token, body) =>
    new Promise((resolve) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = { authorization: `Bearer ${token}` };
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(payload);
      }
      const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
        res.on('error', (err) => resolve({ status: 0, error: err.message }));
      });
      req.setTimeout(15_000, () => req.destroy(new Error('timeout after 15 s')));
      req.on('error', (err) => resolve({ status: 0, error: err.message }));
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  // Phones keep their connections: open the pool before the load, a few at a time, so that a hiccup
  // later does not send hundreds of SYNs at once past the service's accept queue (the kernel drops
  // them and the client retries 1, 3, 7 s later: seconds that are the bench's, not the service's).
  call.prewarm = async () => {
    for (let i = 0; i < maxSockets; i += 32) {
      await Promise.all(Array.from({ length: Math.min(32, maxSockets - i) }, () => call('GET', '/health/live', 'none')));
    }
  };
  return call;
}

/**
 * Latencies (ms) and outcomes per endpoint label, kept only while `measuring`: the warm-up's
 * requests (sockets opening, first heartbeats) are not judged. `expected` statuses (a bid on a ride
 * another driver already won: 409) are counted apart, never as errors.
 */
class Recorder {
  constructor() {
    this.measuring = false;
    this.byLabel = {};
  }

  reset() {
    this.byLabel = {};
  }

  async time(label, call, expected = []) {
    const t0 = performance.now();
    const res = await call();
    const ms = performance.now() - t0;
    if (!this.measuring) return res;
    const entry = (this.byLabel[label] ??= { latencies: [], ok: 0, expected: 0, errors: 0, statuses: {} });
    entry.latencies.push(Math.round(ms * 100) / 100);
    if (res.status >= 200 && res.status < 300) entry.ok += 1;
    else if (expected.includes(res.status)) entry.expected += 1;
    else {
      entry.errors += 1;
      const key = res.status ? String(res.status) : res.error || 'no answer';
      entry.statuses[key] = (entry.statuses[key] || 0) + 1;
    }
    return res;
  }
}

module.exports = { client, Recorder, now };
