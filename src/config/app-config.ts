import { randomBytes } from 'node:crypto';
import { toMinor } from '../common/money';
import { isKnownTimeZone } from '../common/time-zone';
import { ConfigError } from './config-error';
import { OutreachConfig, OutreachEnv, parseOutreach } from './outreach-config';
import { Env, readSettings, Setting } from './settings';

export { ConfigError };

export type NodeEnv = 'development' | 'production' | 'test';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

type Earlier = Readonly<Record<string, unknown>>;

/**
 * Every setting the service reads, parsed and validated once at start-up. Each is declared once, by
 * the decorator on its field (src/config/settings.ts): the variable (the field in SCREAMING_SNAKE_CASE),
 * its kind, default and bounds. src/config/env-docs.spec.ts holds .env.example and the table of docs/configuration.md
 * to those declarations. Fields without a decorator are derived in fromEnv.
 */
export class AppConfig {
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

  @Setting.string('USD', { check: currencyProblem, map: (code) => code.toUpperCase() })
  readonly currency!: string;
  @Setting.number(0, 0, 100)
  readonly platformCommissionPercent!: number;
  /** A completed ride may be rated by each side for this many days (CONTRACT §11). */
  @Setting.int(7, 1, 365)
  readonly ratingWindowDays!: number;
  @Setting.int(10, 1, 24 * 60)
  readonly rideRequestTtlMinutes!: number;
  /** `night` PINs (CONTRACT §14) are for rides accepted from 21:00 to 06:00 here (an IANA zone). */
  @Setting.string('UTC', { check: (zone) => (isKnownTimeZone(zone) ? undefined : 'must be an IANA time zone such as Europe/Berlin') })
  readonly ridePinTimezone!: string;
  /** A started ride's driver staying within 100 m this long, away from pickup and dropoff, asks both parties (§14). */
  @Setting.number(5, 0.001, 24 * 60)
  readonly rideCheckStopMinutes!: number;
  @Setting.int(15, 1, 3600)
  readonly rideExpirySweepSeconds!: number;
  /** How often each instance checks its open-requests index against the database (drift bound). */
  @Setting.int(45, 1, 3600)
  readonly openRequestsReconcileSeconds!: number;
  /** A ride booked for later becomes requested this long before its pickup_at (CONTRACT §11). */
  @Setting.int(15, 0, 24 * 60)
  readonly dispatchLeadMinutes!: number;
  @Setting.int(15, 1, 3600)
  readonly rideDispatchSweepSeconds!: number;
  /** Rides one passenger may hold booked for later (CONTRACT §11: 3). */
  @Setting.int(3, 0, 100)
  readonly scheduledRidesPerPassenger!: number;
  @Setting.number(5, 0.1, 50)
  readonly matchingRadiusKm!: number;
  /** An offered_fare at booking must be at least this percent of the estimate's total. */
  @Setting.number(70, 1, 100)
  readonly minOfferPercent!: number;
  /** The surge multiplier's cap (1 = surge off). */
  @Setting.number(2, 1, 10)
  readonly surgeMaxMultiplier!: number;
  @Setting.number(1.3, 1, 3)
  readonly routingRoadFactor!: number;
  @Setting.number(30, 1, 200)
  readonly routingAverageSpeedKmh!: number;
  @Setting.int(1000, 50, 60_000)
  readonly locationFlushMs!: number;
  /** A driver whose last heartbeat is older than this is not offered new rides. */
  @Setting.int(60, 1, 3600)
  readonly driverLocationMaxAgeSeconds!: number;
  /** How often each instance reloads the matcher's drivers from the database (lost events, flushed positions). */
  @Setting.int(15, 1, 3600)
  readonly driverMatchingReconcileSeconds!: number;
  /** Ride details cache lifetime (0 = off); local writes and ride events invalidate sooner. */
  @Setting.int(1000, 0, 60_000)
  readonly rideCacheMs!: number;
  /** Most rides the ride details cache holds (least recently used go first). */
  @Setting.int(20_000, 1, 10_000_000)
  readonly rideCacheMaxEntries!: number;
  /** How long the location heartbeat may trust its cached "which ride is this driver on" (ride events update it sooner; a bus reconnect drops it). */
  @Setting.int(600_000, 0, 3_600_000)
  readonly driverRideCacheMs!: number;
  /** Most drivers that cache holds (least recently used go first). */
  @Setting.int(200_000, 1, 10_000_000)
  readonly driverRideCacheMaxEntries!: number;
  /**
   * How long nearby may trust a cached driver record (status, category); driver events invalidate
   * sooner, and the whole cache is dropped when the event bus reconnects. Each expiry is a database
   * read: 30 s made 333 reads a second from 10,000 drivers polling nearby.
   */
  @Setting.int(600_000, 0, 3_600_000)
  readonly driverCacheMs!: number;
  /** Most driver records that cache holds (least recently used go first). */
  @Setting.int(100_000, 1, 10_000_000)
  readonly driverCacheMaxEntries!: number;
  /** How long the vehicle categories are served from memory; `vehicle_categories.changed` (categories:reload) invalidates sooner. */
  @Setting.int(30_000, 0, 3_600_000)
  readonly vehicleCategoryCacheMs!: number;
  /** Most verified access tokens remembered (least recently used go first); each lives at most its own lifetime. */
  @Setting.int(200_000, 1, 10_000_000)
  readonly accessTokenCacheMaxEntries!: number;

  @Setting.int(20, 1, 10_000)
  readonly wsMaxMessagesPerSecond!: number;
  @Setting.int(1024 * 1024, 1024, 256 * 1024 * 1024)
  readonly wsMaxBufferedBytes!: number;
  @Setting.int(16 * 1024, 256, 16 * 1024 * 1024)
  readonly wsMaxPayloadBytes!: number;
  /** Live sockets one user may hold on one instance; one more closes the oldest (4429). */
  @Setting.int(5, 1, 1000)
  readonly wsMaxSocketsPerUser!: number;
  @Setting.int(30_000, 100, 600_000)
  readonly wsPingIntervalMs!: number;
  @Setting.int(1000, 0, 60_000)
  readonly wsLocationThrottleMs!: number;

  /** Stripe (CONTRACT §12): unset = no card payments and no payouts (400 "Card payments are not available"). */
  @Setting.optionalString({ check: stripeKeyProblem })
  readonly stripeSecretKey!: string | undefined;
  @Setting.optionalString({ check: webhookSecretProblem })
  readonly stripeWebhookSecret!: string | undefined;
  @Setting.string('https://api.stripe.com', { check: httpUrlProblem, map: (url) => url.replace(/\/+$/, '') })
  readonly stripeApiBase!: string;
  /** A card ride's hold is the fare plus this percent (rounded up to the minor unit). */
  @Setting.int(20, 0, 100)
  readonly cardHoldMarginPercent!: number;
  /** CANCELLATION_FEE in minor units (the variable is major units, at most 2 decimals; 0 = no fee). */
  @Setting.number(3, 0, 10_000, { variable: 'CANCELLATION_FEE', check: twoDecimalsProblem, map: majorToMinor })
  readonly cancellationFeeMinor!: number;
  @Setting.int(120, 0, 24 * 3600)
  readonly cancellationFreeSeconds!: number;
  @Setting.int(300, 0, 24 * 3600)
  readonly noShowWaitSeconds!: number;
  /** Country of the drivers' connected accounts (ISO 3166-1 alpha-2). */
  @Setting.string('US', { check: (c) => (/^[A-Za-z]{2}$/.test(c) ? undefined : 'must be a two-letter country code such as US'), map: (c) => c.toUpperCase() })
  readonly payoutCountry!: string;
  /** PAYOUT_MINIMUM in minor units (the variable is major units, at most 2 decimals). */
  @Setting.number(10, 0.01, 1_000_000, { variable: 'PAYOUT_MINIMUM', check: twoDecimalsProblem, map: majorToMinor })
  readonly payoutMinimumMinor!: number;

  /** Sign-in codes by e-mail and SMS, ride alerts by push (CONTRACT §10; src/config/outreach-config.ts). */
  readonly outreach!: OutreachConfig;
  /** Bearer token of GET /metrics; unset = no /metrics. */
  @Setting.optionalString()
  readonly metricsToken!: string | undefined;

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }

  get isDevelopment(): boolean {
    return this.nodeEnv === 'development';
  }

  static fromEnv(env: Env = process.env): AppConfig {
    const settings = readSettings(AppConfig, env) as Omit<AppConfig, 'jwtSecret'> & { jwtSecret: string | undefined };
    const config = Object.create(AppConfig.prototype) as AppConfig;
    return Object.freeze(
      Object.assign(config, settings, {
        jwtSecret: settings.jwtSecret ?? randomBytes(48).toString('base64url'),
        jwtSecretGenerated: settings.jwtSecret === undefined,
        outreach: parseOutreach(readSettings(OutreachEnv, env) as unknown as OutreachEnv, settings.nodeEnv === 'production'),
      }),
    );
  }
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

function stripeKeyProblem(key: string | undefined): string | undefined {
  return key === undefined || /^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/.test(key) ? undefined : 'must be a Stripe secret key (sk_test_… or sk_live_…)';
}

// Without it no webhook can be verified: cards would work but holds never learn they expired.
function webhookSecretProblem(secret: string | undefined, earlier: Earlier): string | undefined {
  if (secret !== undefined) return /^whsec_\S+$/.test(secret) ? undefined : 'must be a webhook signing secret (whsec_…)';
  if (earlier.nodeEnv === 'production' && earlier.stripeSecretKey !== undefined) return 'is required with STRIPE_SECRET_KEY when NODE_ENV=production';
  return undefined;
}

function httpUrlProblem(url: string): string | undefined {
  return /^https?:\/\/[^/?#]+\/?$/.test(url) ? undefined : `must be an http(s) URL with no path (got "${url}")`;
}

function tileUrlProblem(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  return /^https?:\/\/[^/?#]+\/.*\{z\}.*\{x\}.*\{y\}/.test(url) ? undefined : `must be an http(s) tile URL with {z}, {x} and {y} (got "${url}")`;
}

function twoDecimalsProblem(amount: number): string | undefined {
  return toMinor(amount) === undefined ? 'must have at most 2 decimals' : undefined;
}

function majorToMinor(amount: number): number {
  return toMinor(amount)!;
}

function currencyProblem(code: string): string | undefined {
  return /^[A-Za-z]{3}$/.test(code) ? undefined : 'must be an ISO 4217 code such as USD';
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
