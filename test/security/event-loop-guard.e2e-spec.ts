import { Worker } from 'node:worker_threads';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { bookingBody } from '../rides/ride-helpers';

/**
 * The event-loop guard (issue 15): while several senders post hostile bodies as fast as they are
 * answered, a liveness probe keeps answering quickly. Before the request limits, one body of 80k
 * keys held the event loop for 5.5 s and every other request waited behind it.
 *
 * The senders run in worker threads (their own event loops, so building and sending megabytes does
 * not count against the service); the probe runs on the service's own thread, so its latency is the
 * service's. On a shared, busy machine the probe's p99 is compared with a baseline measured in the
 * same test just before, with the same senders posting the same requests with bodies of the same
 * size but a harmless shape (one long string): the hostile shapes may add at most BUDGET_MS to it.
 */
const SENDERS = 4;
const PROBES = 300;
const MIN_PROBES = 100;
const BUDGET_MS = 50;
const GIVE_UP_MS = 20_000;

const SENDER = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, bodies, offset } = workerData;
let stopped = false;
parentPort.on('message', () => (stopped = true));
(async () => {
  const statuses = {};
  for (let i = offset; !stopped; i++) {
    const { method, path, token, body } = bodies[i % bodies.length];
    const headers = { 'content-type': 'application/json', ...(token ? { authorization: 'Bearer ' + token } : {}) };
    try {
      const res = await fetch(base + path, { method, headers, body: Buffer.from(body) });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] || 0) + 1;
    } catch (err) {
      statuses.error = (statuses.error || 0) + 1;
    }
  }
  parentPort.postMessage(statuses);
})();
`;

interface HostileRequest {
  method: string;
  path: string;
  token?: string;
  body: string;
}

const keys = (n: number): string => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;

function hostileRequests(token: string): HostileRequest[] {
  const location = bookingBody().pickup;
  return [
    // 40k keys: 2 s of one core per request before the limits.
    { method: 'POST', path: '/api/v1/auth/send-otp', body: keys(40_000) },
    { method: 'PUT', path: '/api/v1/auth/profile', token, body: keys(40_000) },
    { method: 'POST', path: '/api/v1/auth/send-otp', body: keys(1000) },
    { method: 'PUT', path: '/api/v1/auth/profile', token, body: `{"first_name":[${Array.from({ length: 40 }, () => keys(999)).join(',')}]}` },
    { method: 'POST', path: '/api/v1/rides/estimate', token, body: JSON.stringify(bookingBody({ pickup: { ...location, ...JSON.parse(keys(990)) } })) },
    { method: 'POST', path: '/api/v1/auth/verify-otp', body: `{"phone":[${'1,'.repeat(10_000)}1]}` },
    { method: 'POST', path: '/api/v1/auth/send-otp', body: '['.repeat(100_000) + ']'.repeat(100_000) },
    { method: 'POST', path: '/api/v1/auth/login', body: JSON.stringify({ email: 'a\u0000@b.c', push_token: 'x'.repeat(100_000) }) },
  ];
}

async function probe(t: TestApp, count: number, deadline: number): Promise<number[]> {
  const latencies: number[] = [];
  while (latencies.length < count && Date.now() < deadline) {
    const started = performance.now();
    const res = await fetch(`${t.baseUrl}/health/live`);
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`/health/live answered ${res.status}`);
  }
  return latencies;
}

const p99 = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))]!;

describe('event-loop guard: /health/live stays fast while hostile bodies are sent', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Probes /health/live while SENDERS workers post these bodies back to back; what each side saw. */
  async function underLoad(bodies: HostileRequest[]): Promise<{ latencies: number[]; statuses: Record<string, number> }> {
    const workers = Array.from({ length: SENDERS }, (_, offset) => new Worker(SENDER, { eval: true, workerData: { base: t.baseUrl, bodies, offset } }));
    const results = workers.map(
      (worker) =>
        new Promise<Record<string, number>>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    );
    let latencies: number[] = [];
    try {
      await probe(t, 20, Date.now() + GIVE_UP_MS); // the senders are under way
      latencies = await probe(t, PROBES, Date.now() + GIVE_UP_MS);
    } finally {
      for (const worker of workers) worker.postMessage('stop');
    }
    const statuses: Record<string, number> = {};
    for (const result of await Promise.all(results)) for (const [status, n] of Object.entries(result)) statuses[status] = (statuses[status] ?? 0) + n;
    await Promise.all(workers.map((worker) => worker.terminate()));
    return { latencies, statuses };
  }

  it(
    `p99 of ${PROBES} probes under ${SENDERS} hostile senders stays within ${BUDGET_MS} ms of the same senders sending harmless bodies of the same size`,
    async () => {
      const user = await createUser(t);
      // The baseline: the same senders and requests with bodies of the same size but a harmless
      // shape (one long string; refused as well), so that only the shape differs.
      const harmless = hostileRequests(user.accessToken).map((request) => ({
        ...request,
        body: `{"k":"${'x'.repeat(Math.max(0, request.body.length - 8))}"}`,
      }));
      const baseline = await underLoad(harmless);
      const attack = await underLoad(hostileRequests(user.accessToken));
      const [quiet, loud] = [p99(baseline.latencies), p99(attack.latencies)];
      process.stdout.write(
        `event-loop guard: /health/live p99 ${loud.toFixed(1)} ms under hostile bodies (${attack.latencies.length} probes, answers ${JSON.stringify(attack.statuses)}), ` +
          `${quiet.toFixed(1)} ms under harmless ones of the same size (answers ${JSON.stringify(baseline.statuses)})\n`,
      );
      // Every hostile request was answered, as the 400 it is; none got through or broke the service.
      expect(Object.keys(attack.statuses)).toEqual(['400']);
      expect(attack.statuses['400']).toBeGreaterThanOrEqual(SENDERS);
      expect(loud).toBeLessThan(quiet + BUDGET_MS);
      // Enough probes for a p99 (on a quiet machine all of them arrive in a few seconds).
      expect(attack.latencies.length).toBeGreaterThanOrEqual(MIN_PROBES);
    },
    GIVE_UP_MS * 5,
  );
});
