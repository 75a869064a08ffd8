import { randomBytes } from 'node:crypto';
import { ConfigError } from './config-error';
import { OutreachConfig, parseOutreach } from './outreach-config';

export { ConfigError };

type Env = Record<string, string | undefined>;

export type NodeEnv = 'development' | 'production' | 'test';

/**
 * Every setting the service reads, parsed and validated once at start-up. The defaults here are
 * the ones documented in `.env.example` and the README; keep the three in step.
 */
export class AppConfig {
  readonly nodeEnv!: NodeEnv;
  readonly port!: number;
  readonly host!: string;
  readonly logLevel!: string;
  readonly trustProxy!: boolean;
  /** Exact origins (scheme://host[:port]) browsers may call the API from; `*` = any (not in production). */
  readonly corsOrigins!: readonly string[];
  readonly bodyLimitBytes!: number;
  readonly shutdownTimeoutMs!: number;
  /** A request whose body has not fully arrived this long after it started is answered 408 (CONTRACT §1). */
  readonly requestTimeoutMs!: number;

  readonly databaseUrl!: string | undefined;
  readonly embeddedPgDataDir!: string;
  readonly embeddedPgPort!: number;
  readonly dbPoolSize!: number;
  readonly runMigrations!: boolean;
  readonly redisUrl!: string | undefined;
  /** Namespace for every Redis key and channel, so several deployments can share one server. */
  readonly redisKeyPrefix!: string;

  readonly jwtSecret!: string;
  readonly jwtSecretGenerated!: boolean;
  readonly jwtAccessTtlMinutes!: number;
  readonly jwtRefreshTtlDays!: number;
  readonly userStateCacheMs!: number;
  /** Users whose auth state one instance keeps (least recently used dropped first). */
  readonly userStateCacheMaxEntries!: number;

  readonly otpDevFixedCode!: string | undefined;
  readonly otpMaxAttempts!: number;
  readonly otpResendCooldownSeconds!: number;
  readonly otpMaxPerHour!: number;
  readonly authRateLimitPerIpPerMinute!: number;
  readonly bookingRateLimitPerHour!: number;
  readonly bidRateLimitPerMinute!: number;
  /** Chat messages a user may send per minute (0 = no limit). */
  readonly chatMessagesPerMinute!: number;
  /** GET /shared-rides/{token} per client IP per minute (0 = off). */
  readonly sharedRideRateLimitPerIpPerMinute!: number;
  /** Share links one passenger may make per hour (0 = off). */
  readonly shareLinksPerHour!: number;
  /** How long a shared ride's link and view are served from memory (0 = off); ride events forget them sooner. */
  readonly sharedRideCacheMs!: number;
  readonly loginOtpWindowMinutes!: number;

  readonly driverAutoApprove!: boolean;
  readonly uploadDir!: string;
  readonly publicBaseUrl!: string;
  readonly profilePictureMaxBytes!: number;

  readonly currency!: string;
  readonly platformCommissionPercent!: number;
  /** A completed ride may be rated by each side for this many days (CONTRACT §11). */
  readonly ratingWindowDays!: number;
  readonly rideRequestTtlMinutes!: number;
  readonly rideExpirySweepSeconds!: number;
  /** A ride booked for later becomes requested this long before its pickup_at (CONTRACT §11). */
  readonly dispatchLeadMinutes!: number;
  readonly rideDispatchSweepSeconds!: number;
  /** Rides one passenger may hold booked for later (CONTRACT §11: 3). */
  readonly scheduledRidesPerPassenger!: number;
  readonly matchingRadiusKm!: number;
  /** An offered_fare at booking must be at least this percent of the estimate's total. */
  readonly minOfferPercent!: number;
  /** The surge multiplier's cap (1 = surge off). */
  readonly surgeMaxMultiplier!: number;
  readonly routingRoadFactor!: number;
  readonly routingAverageSpeedKmh!: number;
  readonly locationFlushMs!: number;
  /** A driver whose last heartbeat is older than this is not offered new rides. */
  readonly driverLocationMaxAgeSeconds!: number;
  /** How often the matcher's memory is reloaded from the database (bounds a lost event). */
  readonly driverMatchingReconcileSeconds!: number;
  /** Ride details cache lifetime (0 = off); local writes and ride events invalidate sooner. */
  readonly rideCacheMs!: number;
  /** Most rides the ride details cache holds (least recently used go first). */
  readonly rideCacheMaxEntries!: number;
  /** How long the location heartbeat may trust its cached "which ride is this driver on" (ride events update it sooner). */
  readonly driverRideCacheMs!: number;
  /** Most drivers that cache holds (least recently used go first). */
  readonly driverRideCacheMaxEntries!: number;
  /** How long nearby may trust a cached driver record (status, category); driver events invalidate sooner. */
  readonly driverCacheMs!: number;
  /** Most driver records that cache holds (least recently used go first). */
  readonly driverCacheMaxEntries!: number;
  /** How long the vehicle categories are served from memory; `vehicle_categories.changed` (categories:reload) invalidates sooner. */
  readonly vehicleCategoryCacheMs!: number;
  /** Most verified access tokens remembered (least recently used go first); each lives at most its own lifetime. */
  readonly accessTokenCacheMaxEntries!: number;

  readonly wsMaxMessagesPerSecond!: number;
  readonly wsMaxBufferedBytes!: number;
  readonly wsMaxPayloadBytes!: number;
  /** Live sockets one user may hold on one instance; one more closes the oldest (4429). */
  readonly wsMaxSocketsPerUser!: number;
  readonly wsPingIntervalMs!: number;
  readonly wsLocationThrottleMs!: number;

  /** Sign-in codes by e-mail and SMS, ride alerts by push (CONTRACT §10; src/config/outreach-config.ts). */
  readonly outreach!: OutreachConfig;
  /** Bearer token of GET /metrics; unset = no /metrics. */
  readonly metricsToken!: string | undefined;

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }

  get isDevelopment(): boolean {
    return this.nodeEnv === 'development';
  }

  static fromEnv(env: Env = process.env): AppConfig {
    const read = new EnvReader(env);
    const nodeEnv = read.oneOf('NODE_ENV', ['development', 'production', 'test'], 'development');
    const isProduction = nodeEnv === 'production';

    const secretRaw = read.optionalString('JWT_SECRET');
    if (secretRaw !== undefined && Buffer.byteLength(secretRaw) < 32) {
      throw new ConfigError('JWT_SECRET', 'must be at least 32 bytes long');
    }
    if (secretRaw === undefined && isProduction) {
      throw new ConfigError('JWT_SECRET', 'is required when NODE_ENV=production (at least 32 bytes)');
    }

    const fixed = read.optionalString('OTP_DEV_FIXED_CODE');
    if (fixed !== undefined && !/^\d{4,10}$/.test(fixed)) {
      throw new ConfigError('OTP_DEV_FIXED_CODE', 'must be 4 to 10 digits');
    }
    // A fixed code in production would let anyone sign in as anyone: refuse to start rather than ignore it.
    if (fixed !== undefined && isProduction) {
      throw new ConfigError('OTP_DEV_FIXED_CODE', 'must not be set when NODE_ENV=production (it is a development-only sign-in code)');
    }

    const currency = read.string('CURRENCY', 'USD').toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) throw new ConfigError('CURRENCY', 'must be an ISO 4217 code such as USD');

    const databaseUrl = read.optionalString('DATABASE_URL');
    if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new ConfigError('DATABASE_URL', 'must be a postgres:// or postgresql:// URL');
    }
    const redisUrl = read.optionalString('REDIS_URL');
    if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
      throw new ConfigError('REDIS_URL', 'must be a redis:// or rediss:// URL');
    }

    const corsOrigins = parseCorsOrigins(read.list('CORS_ORIGINS'), isProduction);
    const outreach = parseOutreach(
      {
        APP_NAME: read.string('APP_NAME', 'Rides'), SMTP_URL: read.optionalString('SMTP_URL'), MAIL_FROM: read.optionalString('MAIL_FROM'),
        SMS_PROVIDER: read.optionalString('SMS_PROVIDER'), TWILIO_ACCOUNT_SID: read.optionalString('TWILIO_ACCOUNT_SID'),
        TWILIO_AUTH_TOKEN: read.optionalString('TWILIO_AUTH_TOKEN'), TWILIO_FROM: read.optionalString('TWILIO_FROM'),
        TWILIO_API_BASE: read.string('TWILIO_API_BASE', 'https://api.twilio.com'),
        FCM_SERVICE_ACCOUNT_FILE: read.optionalString('FCM_SERVICE_ACCOUNT_FILE'), FCM_API_BASE: read.string('FCM_API_BASE', 'https://fcm.googleapis.com'),
      },
      isProduction,
    );

    const config = Object.create(AppConfig.prototype) as AppConfig;
    return Object.freeze(
      Object.assign(config, {
        nodeEnv,
        port: read.int('PORT', 3000, 0, 65535),
        host: read.string('HOST', '0.0.0.0'),
        logLevel: read.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
        trustProxy: read.bool('TRUST_PROXY', false),
        corsOrigins,
        bodyLimitBytes: read.int('BODY_LIMIT_BYTES', 6 * 1024 * 1024, 1024, 100 * 1024 * 1024),
        shutdownTimeoutMs: read.int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
        requestTimeoutMs: read.int('REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),

        databaseUrl,
        embeddedPgDataDir: read.string('EMBEDDED_PG_DATA_DIR', '.data/postgres'),
        embeddedPgPort: read.int('EMBEDDED_PG_PORT', 0, 0, 65535),
        dbPoolSize: read.int('DB_POOL_SIZE', 10, 1, 200),
        runMigrations: read.bool('RUN_MIGRATIONS', true),
        redisUrl,
        redisKeyPrefix: read.string('REDIS_KEY_PREFIX', 'ride-hailing'),

        jwtSecret: secretRaw ?? randomBytes(48).toString('base64url'),
        jwtSecretGenerated: secretRaw === undefined,
        jwtAccessTtlMinutes: read.int('JWT_ACCESS_TTL_MINUTES', 15, 1, 24 * 60),
        jwtRefreshTtlDays: read.int('JWT_REFRESH_TTL_DAYS', 30, 1, 365),
        userStateCacheMs: read.int('USER_STATE_CACHE_MS', 60_000, 0, 3_600_000),
        userStateCacheMaxEntries: read.int('USER_STATE_CACHE_MAX_ENTRIES', 100_000, 1, 10_000_000),

        otpDevFixedCode: nodeEnv === 'development' ? fixed : undefined,
        otpMaxAttempts: read.int('OTP_MAX_ATTEMPTS', 5, 1, 100),
        otpResendCooldownSeconds: read.int('OTP_RESEND_COOLDOWN_SECONDS', 30, 0, 3600),
        otpMaxPerHour: read.int('OTP_MAX_PER_HOUR', 10, 0, 10_000),
        authRateLimitPerIpPerMinute: read.int('AUTH_RATE_LIMIT_PER_IP_PER_MINUTE', 60, 0, 1_000_000),
        bookingRateLimitPerHour: read.int('BOOKING_RATE_LIMIT_PER_HOUR', 30, 0, 1_000_000),
        bidRateLimitPerMinute: read.int('BID_RATE_LIMIT_PER_MINUTE', 60, 0, 1_000_000),
        chatMessagesPerMinute: read.int('CHAT_MESSAGES_PER_MINUTE', 30, 0, 1_000_000),
        sharedRideRateLimitPerIpPerMinute: read.int('SHARED_RIDE_RATE_LIMIT_PER_IP_PER_MINUTE', 120, 0, 1_000_000),
        sharedRideCacheMs: read.int('SHARED_RIDE_CACHE_MS', 5000, 0, 60_000),
        shareLinksPerHour: read.int('SHARE_LINKS_PER_HOUR', 30, 0, 1_000_000),
        loginOtpWindowMinutes: read.int('LOGIN_OTP_WINDOW_MINUTES', 10, 1, 24 * 60),

        driverAutoApprove: read.bool('DRIVER_AUTO_APPROVE', nodeEnv === 'development'),
        uploadDir: read.string('UPLOAD_DIR', '.data/uploads'),
        publicBaseUrl: read.string('PUBLIC_BASE_URL', '').replace(/\/+$/, ''),
        profilePictureMaxBytes: read.int('PROFILE_PICTURE_MAX_BYTES', 2 * 1024 * 1024, 1024, 50 * 1024 * 1024),

        currency,
        platformCommissionPercent: read.number('PLATFORM_COMMISSION_PERCENT', 0, 0, 100),
        ratingWindowDays: read.int('RATING_WINDOW_DAYS', 7, 1, 365),
        rideRequestTtlMinutes: read.int('RIDE_REQUEST_TTL_MINUTES', 10, 1, 24 * 60),
        rideExpirySweepSeconds: read.int('RIDE_EXPIRY_SWEEP_SECONDS', 15, 1, 3600),
        dispatchLeadMinutes: read.int('DISPATCH_LEAD_MINUTES', 15, 0, 24 * 60),
        rideDispatchSweepSeconds: read.int('RIDE_DISPATCH_SWEEP_SECONDS', 15, 1, 3600),
        scheduledRidesPerPassenger: read.int('SCHEDULED_RIDES_PER_PASSENGER', 3, 0, 100),
        matchingRadiusKm: read.number('MATCHING_RADIUS_KM', 5, 0.1, 50),
        minOfferPercent: read.number('MIN_OFFER_PERCENT', 70, 1, 100),
        surgeMaxMultiplier: read.number('SURGE_MAX_MULTIPLIER', 2, 1, 10),
        routingRoadFactor: read.number('ROUTING_ROAD_FACTOR', 1.3, 1, 3),
        routingAverageSpeedKmh: read.number('ROUTING_AVERAGE_SPEED_KMH', 30, 1, 200),
        locationFlushMs: read.int('LOCATION_FLUSH_MS', 1000, 50, 60_000),
        driverLocationMaxAgeSeconds: read.int('DRIVER_LOCATION_MAX_AGE_SECONDS', 60, 1, 3600),
        driverMatchingReconcileSeconds: read.int('DRIVER_MATCHING_RECONCILE_SECONDS', 15, 1, 3600),
        rideCacheMs: read.int('RIDE_CACHE_MS', 1000, 0, 60_000),
        rideCacheMaxEntries: read.int('RIDE_CACHE_MAX_ENTRIES', 20_000, 1, 10_000_000),
        driverRideCacheMs: read.int('DRIVER_RIDE_CACHE_MS', 30_000, 0, 3_600_000),
        driverRideCacheMaxEntries: read.int('DRIVER_RIDE_CACHE_MAX_ENTRIES', 200_000, 1, 10_000_000),
        driverCacheMs: read.int('DRIVER_CACHE_MS', 30_000, 0, 3_600_000),
        driverCacheMaxEntries: read.int('DRIVER_CACHE_MAX_ENTRIES', 100_000, 1, 10_000_000),
        vehicleCategoryCacheMs: read.int('VEHICLE_CATEGORY_CACHE_MS', 30_000, 0, 3_600_000),
        accessTokenCacheMaxEntries: read.int('ACCESS_TOKEN_CACHE_MAX_ENTRIES', 200_000, 1, 10_000_000),

        wsMaxMessagesPerSecond: read.int('WS_MAX_MESSAGES_PER_SECOND', 20, 1, 10_000),
        wsMaxBufferedBytes: read.int('WS_MAX_BUFFERED_BYTES', 1024 * 1024, 1024, 256 * 1024 * 1024),
        wsMaxPayloadBytes: read.int('WS_MAX_PAYLOAD_BYTES', 16 * 1024, 256, 16 * 1024 * 1024),
        wsMaxSocketsPerUser: read.int('WS_MAX_SOCKETS_PER_USER', 5, 1, 1000),
        wsPingIntervalMs: read.int('WS_PING_INTERVAL_MS', 30_000, 100, 600_000),
        wsLocationThrottleMs: read.int('WS_LOCATION_THROTTLE_MS', 1000, 0, 60_000),

        outreach,
        metricsToken: read.optionalString('METRICS_TOKEN'),
      }),
    );
  }
}

function parseCorsOrigins(entries: string[], isProduction: boolean): readonly string[] {
  for (const entry of entries) {
    if (entry === '*') {
      if (isProduction) throw new ConfigError('CORS_ORIGINS', 'must list exact origins in production, not *');
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
      throw new ConfigError('CORS_ORIGINS', `must be a comma-separated list of origins such as https://admin.example.com (got "${entry}")`);
    }
  }
  return Object.freeze([...new Set(entries)]);
}

class EnvReader {
  constructor(private readonly env: Env) {}

  optionalString(name: string): string | undefined {
    const value = this.env[name];
    if (value === undefined || value.trim() === '') return undefined;
    return value.trim();
  }

  string(name: string, fallback: string): string {
    return this.optionalString(name) ?? fallback;
  }

  /** Comma-separated values, trimmed, empty ones dropped. */
  list(name: string): string[] {
    const value = this.optionalString(name);
    if (value === undefined) return [];
    return value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.optionalString(name);
    if (value === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${value}")`);
    }
    return value as T;
  }

  number(name: string, fallback: number, min: number, max: number): number {
    const value = this.optionalString(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < min || parsed > max) {
      throw new ConfigError(name, `must be a number from ${min} to ${max} (got "${value}")`);
    }
    return parsed;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const value = this.optionalString(name);
    if (value === undefined) return fallback;
    if (!/^-?\d+$/.test(value)) throw new ConfigError(name, `must be a whole number (got "${value}")`);
    return this.number(name, fallback, min, max);
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.optionalString(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['true', '1', 'yes', 'on'].includes(value)) return true;
    if (['false', '0', 'no', 'off'].includes(value)) return false;
    throw new ConfigError(name, `must be true or false (got "${value}")`);
  }
}
