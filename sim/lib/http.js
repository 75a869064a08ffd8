'use strict';
/**
 * The simulator's HTTP client: JSON in and out, latency per endpoint label, 429 honoured (waits for
 * Retry-After, with backoff, and retries; never a violation), and every status the caller did not
 * list as expected reported as a contract violation.
 */
const { performance } = require('node:perf_hooks');
class ApiClient {
  constructor({ latencies, report, counters, capture }) {
    this.latencies = latencies;
    this.report = report;
    this.counters = counters;
    this.capture = capture;
  }

  /**
   * label: the endpoint template ("POST /rides/{id}/cancel"); expect: non-2xx statuses that are a
   * legitimate outcome here (a race the simulation can lose). Returns {status, ok, body, sentAt, at}:
   * status 0 (not ok) when no response came; `sentAt` is when the request (its last attempt) was sent,
   * where an event it causes is timed from; `at` is when the response arrived.
   */
  async call(base, method, path, { token, body, label, expect = [], who } = {}) {
    const name = label || `${method} ${path}`;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let res;
      let text;
      try {
        res = await fetch(`${base}/api/v1${path}`, {
          method,
          headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: body !== undefined ? JSON.stringify(body) : undefined,
        });
        text = await res.text();
      } catch (err) {
        this.counters.errors++;
        this.report('request-failed', `${name}${who ? ` (${who})` : ''}: ${err.cause?.code || err.message}`);
        return { status: 0, ok: false, body: undefined, sentAt: started, at: performance.now() };
      }
      const at = performance.now();
      this.counters.requests++;
      if (res.status >= 500) this.counters.serverErrors++;
      if (res.status === 429) {
        this.counters.rateLimited++;
        const retryAfter = Number(res.headers.get('retry-after'));
        const wait = (Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 500) * Math.min(4, 1 + attempt * 0.5);
        if (attempt < 8) {
          await new Promise((r) => setTimeout(r, wait));
          continue;
        }
      } else {
        this.latencies.add(name, at - started);
      }
      let json;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = text;
      }
      if (this.capture) this.capture.http(name, { method, path, body }, res.status, json);
      const ok = res.status >= 200 && res.status < 300;
      if (!ok && !expect.includes(res.status)) {
        this.counters.errors++;
        const message = json && typeof json === 'object' ? json.message : String(text).slice(0, 120);
        this.report('unexpected-status', `${name}${who ? ` (${who})` : ''} → ${res.status} ${message}`);
      }
      return { status: res.status, ok, body: json, sentAt: started, at };
    }
  }
}

module.exports = { ApiClient };
