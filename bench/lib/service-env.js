'use strict';
/**
 * How every bench starts the service: development mode with a fixed OTP, the bench's JWT secret (so
 * that tokens can be minted for seeded users), quiet logs, and the per-user and per-IP limits off
 * (one load generator is every user's IP, and every request would be a 429).
 */
const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const BENCH_OTP = '123456';
const BENCH_METRICS_TOKEN = 'bench-metrics';

function benchServiceEnv({ databaseUrl, port, ...overrides }) {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'development',
    OTP_DEV_FIXED_CODE: BENCH_OTP,
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    JWT_SECRET: BENCH_JWT_SECRET,
    AUTH_RATE_LIMIT_PER_IP_PER_MINUTE: '0',
    BOOKING_RATE_LIMIT_PER_HOUR: '0',
    BID_RATE_LIMIT_PER_MINUTE: '0',
    OTP_RESEND_COOLDOWN_SECONDS: '0',
    OTP_MAX_PER_HOUR: '0',
    DRIVER_AUTO_APPROVE: 'true',
    RIDE_REQUEST_TTL_MINUTES: '120',
    // /metrics on: untilNearbyFromMemory reads open_requests_in_memory there.
    METRICS_TOKEN: process.env.METRICS_TOKEN || BENCH_METRICS_TOKEN,
    ...overrides,
  };
}

/**
 * Waits until the service at `base` answers nearby from its open-requests index (its start-up load
 * done): the database's page before it is the same bytes, so the metric says which one answers.
 * The service needs benchServiceEnv's METRICS_TOKEN.
 */
async function untilNearbyFromMemory(base, seconds = 300) {
  const token = process.env.METRICS_TOKEN || BENCH_METRICS_TOKEN;
  const deadline = Date.now() + seconds * 1000;
  let last = 'no answer';
  for (;;) {
    try {
      const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
      const match = /^open_requests_in_memory (-?\d+)/m.exec(text);
      last = match ? match[1] : 'no open_requests_in_memory';
      if (match && Number(match[1]) >= 0) return Number(match[1]);
    } catch (err) {
      last = err.message;
    }
    if (Date.now() > deadline) throw new Error(`nearby still not from memory after ${seconds} s (${last})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

module.exports = { benchServiceEnv, untilNearbyFromMemory, BENCH_JWT_SECRET, BENCH_OTP };
