import { Earlier, Setting } from './settings';

export type NodeEnv = 'development' | 'production' | 'test';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The first of AppConfig's groups (see AppConfig): the process, its stores, sign-in and the rate limits.
 * NODE_ENV is read first because later checks and defaults depend on it.
 */
export class ServiceSettings {
  @Setting.oneOf(['development', 'production', 'test'], 'development')
  readonly nodeEnv!: NodeEnv;
  @Setting.int(3000, 0, 65535)
  readonly port!: number;
  @Setting.string('0.0.0.0')
  readonly host!: string;
  @Setting.oneOf(LOG_LEVELS, 'info')
  readonly logLevel!: (typeof LOG_LEVELS)[number];
  @Setting.bool(false)
  readonly trustProxy!: boolean;
  /** Exact origins (scheme://host[:port]) browsers may call the API from; `*` = any (not in production). */
  @Setting.list({ check: corsOriginsProblem, map: (origins) => Object.freeze([...new Set(origins)]) })
  readonly corsOrigins!: readonly string[];
  @Setting.int(6 * 1024 * 1024, 1024, 100 * 1024 * 1024)
  readonly bodyLimitBytes!: number;
  @Setting.int(10_000, 0, 600_000)
  readonly shutdownTimeoutMs!: number;
  /** A request whose body has not fully arrived this long after it started is answered 408 (CONTRACT §1). */
  @Setting.int(30_000, 100, 600_000)
  readonly requestTimeoutMs!: number;

  @Setting.optionalString({ check: urlProblem(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL') })
  readonly databaseUrl!: string | undefined;
  @Setting.string('.data/postgres')
  readonly embeddedPgDataDir!: string;
  @Setting.int(0, 0, 65535)
  readonly embeddedPgPort!: number;
  @Setting.int(10, 1, 200)
  readonly dbPoolSize!: number;
  @Setting.bool(true)
  readonly runMigrations!: boolean;
  @Setting.optionalString({ check: urlProblem(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL') })
  readonly redisUrl!: string | undefined;
  /** Namespace for every Redis key and channel, so several deployments can share one server. */
  @Setting.string('ride-hailing')
  readonly redisKeyPrefix!: string;

  @Setting.optionalString({ check: jwtSecretProblem })
  readonly jwtSecret!: string;
  readonly jwtSecretGenerated!: boolean;
  @Setting.int(15, 1, 24 * 60)
  readonly jwtAccessTtlMinutes!: number;
  @Setting.int(30, 1, 365)
  readonly jwtRefreshTtlDays!: number;
  @Setting.int(60_000, 0, 3_600_000)
  readonly userStateCacheMs!: number;
  /** Users whose auth state one instance keeps (least recently used dropped first). */
  @Setting.int(100_000, 1, 10_000_000)
  readonly userStateCacheMaxEntries!: number;

  @Setting.optionalString({ check: fixedOtpProblem, map: (code, earlier) => (earlier.nodeEnv === 'development' ? code : undefined) })
  readonly otpDevFixedCode!: string | undefined;
  @Setting.int(5, 1, 100)
  readonly otpMaxAttempts!: number;
  @Setting.int(30, 0, 3600)
  readonly otpResendCooldownSeconds!: number;
  @Setting.int(10, 0, 10_000)
  readonly otpMaxPerHour!: number;
  @Setting.int(60, 0, 1_000_000)
  readonly authRateLimitPerIpPerMinute!: number;
  @Setting.int(30, 0, 1_000_000)
  readonly bookingRateLimitPerHour!: number;
  @Setting.int(60, 0, 1_000_000)
  readonly bidRateLimitPerMinute!: number;
  /** Chat messages a user may send per minute (0 = no limit). */
  @Setting.int(30, 0, 1_000_000)
  readonly chatMessagesPerMinute!: number;
  /** GET /shared-rides/{token} per client IP per minute (0 = off). */
  @Setting.int(120, 0, 1_000_000)
  readonly sharedRideRateLimitPerIpPerMinute!: number;
  /** How long a shared ride's link and view are served from memory (0 = off); ride events forget them sooner. */
  @Setting.int(5000, 0, 60_000)
  readonly sharedRideCacheMs!: number;
  /** Most shared links and shared views each of those caches holds (least recently used go first). */
  @Setting.int(50_000, 1, 10_000_000)
  readonly sharedRideCacheMaxEntries!: number;
  /** Share links one passenger may make per hour (0 = off). */
  @Setting.int(30, 0, 1_000_000)
  readonly shareLinksPerHour!: number;
  @Setting.int(10, 1, 24 * 60)
  readonly loginOtpWindowMinutes!: number;

  @Setting.bool((earlier) => earlier.nodeEnv === 'development')
  readonly driverAutoApprove!: boolean;
  @Setting.string('.data/uploads')
  readonly uploadDir!: string;
  @Setting.string('', { map: (url) => url.replace(/\/+$/, '') })
  readonly publicBaseUrl!: string;
  /** Map tiles of the console's live view (`{z}/{x}/{y}` template); unset = a plain drawing, no third party. */
  @Setting.optionalString({ check: tileUrlProblem })
  readonly consoleTileUrl!: string | undefined;
  @Setting.int(2 * 1024 * 1024, 1024, 50 * 1024 * 1024)
  readonly profilePictureMaxBytes!: number;
}

function jwtSecretProblem(secret: string | undefined, earlier: Earlier): string | undefined {
  if (secret !== undefined && Buffer.byteLength(secret) < 32) return 'must be at least 32 bytes long';
  if (secret === undefined && earlier.nodeEnv === 'production') return 'is required when NODE_ENV=production (at least 32 bytes)';
  return undefined;
}

function fixedOtpProblem(code: string | undefined, earlier: Earlier): string | undefined {
  if (code === undefined) return undefined;
  if (!/^\d{4,10}$/.test(code)) return 'must be 4 to 10 digits';
  // A fixed code in production would let anyone sign in as anyone: refuse to start rather than ignore it.
  if (earlier.nodeEnv === 'production') return 'must not be set when NODE_ENV=production (it is a development-only sign-in code)';
  return undefined;
}

function tileUrlProblem(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  return /^https?:\/\/[^/?#]+\/.*\{z\}.*\{x\}.*\{y\}/.test(url) ? undefined : `must be an http(s) tile URL with {z}, {x} and {y} (got "${url}")`;
}

function urlProblem(scheme: RegExp, problem: string): (url: string | undefined) => string | undefined {
  return (url) => (url === undefined || scheme.test(url) ? undefined : problem);
}

function corsOriginsProblem(entries: readonly string[], earlier: Earlier): string | undefined {
  for (const entry of entries) {
    if (entry === '*') {
      if (earlier.nodeEnv === 'production') return 'must list exact origins in production, not *';
      continue;
    }
    let origin: string | undefined;
    try {
      origin = new URL(entry).origin;
    } catch {
      origin = undefined;
    }
    // Browsers send the Origin header exactly as URL#origin spells it; anything else would never match.
    if (origin !== entry || !/^https?:/.test(entry)) {
      return `must be a comma-separated list of origins such as https://admin.example.com (got "${entry}")`;
    }
  }
  return undefined;
}
