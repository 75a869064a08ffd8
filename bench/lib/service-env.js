'use strict';
/**
 * How every bench starts the service: development mode with a fixed OTP, the bench's JWT secret (so
 * that tokens can be minted for seeded users), quiet logs, and the per-user and per-IP limits off
 * (one load generator is every user's IP, and every request would be a 429).
 */
const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const BENCH_OTP = '123456';

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
    ...overrides,
  };
}

module.exports = { benchServiceEnv, BENCH_JWT_SECRET, BENCH_OTP };
