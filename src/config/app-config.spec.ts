import { AppConfig, ConfigError } from './app-config';

const SECRET = 'a-secret-that-is-definitely-32-bytes-or-more';
/** Production needs a sign-in channel (CONTRACT §10). */
const MAIL = { SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'Rides <no-reply@example.com>' };

function failure(env: Record<string, string>): ConfigError {
  try {
    AppConfig.fromEnv(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('AppConfig.fromEnv', () => {
  it('has the documented defaults with an empty environment', () => {
    const config = AppConfig.fromEnv({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      host: '0.0.0.0',
      logLevel: 'info',
      bodyLimitBytes: 6 * 1024 * 1024,
      trustProxy: false,
      corsOrigins: [],
      databaseUrl: undefined,
      embeddedPgDataDir: '.data/postgres',
      runMigrations: true,
      redisUrl: undefined,
      jwtAccessTtlMinutes: 15,
      jwtRefreshTtlDays: 30,
      otpMaxAttempts: 5,
      otpResendCooldownSeconds: 30,
      otpMaxPerHour: 10,
      authRateLimitPerIpPerMinute: 60,
      chatMessagesPerMinute: 30,
      loginOtpWindowMinutes: 10,
      driverAutoApprove: true,
      currency: 'USD',
      platformCommissionPercent: 0,
      rideRequestTtlMinutes: 10,
      driverLocationMaxAgeSeconds: 60,
    });
    expect(config.isDevelopment).toBe(true);
    expect(config.isProduction).toBe(false);
  });

  it('reads the rating window and the trip-sharing limits (issue 20), refusing values out of range', () => {
    expect(AppConfig.fromEnv({})).toMatchObject({
      ratingWindowDays: 7,
      sharedRideRateLimitPerIpPerMinute: 120,
      shareLinksPerHour: 30,
      sharedRideCacheMs: 5000,
    });
    const set = { RATING_WINDOW_DAYS: '14', SHARED_RIDE_RATE_LIMIT_PER_IP_PER_MINUTE: '0', SHARE_LINKS_PER_HOUR: '5', SHARED_RIDE_CACHE_MS: '0' };
    expect(AppConfig.fromEnv(set)).toMatchObject({ ratingWindowDays: 14, sharedRideRateLimitPerIpPerMinute: 0, shareLinksPerHour: 5, sharedRideCacheMs: 0 });
    expect(failure({ RATING_WINDOW_DAYS: '0' }).message).toContain('RATING_WINDOW_DAYS');
    expect(failure({ SHARED_RIDE_CACHE_MS: 'soon' }).message).toContain('SHARED_RIDE_CACHE_MS');
  });

  it('reads the payment settings (CONTRACT §12) with their defaults, money in minor units', () => {
    expect(AppConfig.fromEnv({})).toMatchObject({
      stripeSecretKey: undefined,
      stripeWebhookSecret: undefined,
      stripeApiBase: 'https://api.stripe.com',
      cardHoldMarginPercent: 20,
      cancellationFeeMinor: 300,
      cancellationFreeSeconds: 120,
      noShowWaitSeconds: 300,
      payoutCountry: 'US',
      payoutMinimumMinor: 1000,
    });
    const set = {
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_API_BASE: 'http://127.0.0.1:12111/',
      CANCELLATION_FEE: '2.5',
      PAYOUT_MINIMUM: '0.5',
      PAYOUT_COUNTRY: 'de',
    };
    expect(AppConfig.fromEnv(set)).toMatchObject({
      stripeApiBase: 'http://127.0.0.1:12111',
      cancellationFeeMinor: 250,
      payoutMinimumMinor: 50,
      payoutCountry: 'DE',
    });
    expect(AppConfig.fromEnv({ CANCELLATION_FEE: '0' }).cancellationFeeMinor).toBe(0);
    expect(failure({ CANCELLATION_FEE: '2.555' }).message).toContain('CANCELLATION_FEE');
    expect(failure({ STRIPE_SECRET_KEY: 'pk_test_publishable' }).message).toContain('STRIPE_SECRET_KEY');
    expect(failure({ STRIPE_WEBHOOK_SECRET: 'secret' }).message).toContain('STRIPE_WEBHOOK_SECRET');
    expect(failure({ STRIPE_API_BASE: 'ftp://stripe' }).message).toContain('STRIPE_API_BASE');
    expect(failure({ CARD_HOLD_MARGIN_PERCENT: '101' }).message).toContain('CARD_HOLD_MARGIN_PERCENT');
  });

  it('refuses to start in production with a Stripe key but no webhook secret', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: SECRET, ...MAIL };
    expect(failure({ ...production, STRIPE_SECRET_KEY: 'sk_live_abc' }).message).toMatch(/STRIPE_WEBHOOK_SECRET.*required/);
    expect(AppConfig.fromEnv({ ...production, STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).stripeSecretKey).toBe('sk_live_abc');
    expect(AppConfig.fromEnv(production).stripeSecretKey).toBeUndefined();
    expect(AppConfig.fromEnv({ STRIPE_SECRET_KEY: 'sk_test_abc' }).stripeWebhookSecret).toBeUndefined();
  });

  it('is frozen', () => {
    const config = AppConfig.fromEnv({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(config).toBeInstanceOf(AppConfig);
  });

  it.each([
    ['PORT', 'abc', /PORT must be a whole number \(got "abc"\)/],
    ['PORT', '70000', /PORT must be a number from 0 to 65535/],
    ['PORT', '3000.5', /PORT must be a whole number/],
    ['NODE_ENV', 'staging', /NODE_ENV must be one of development, production, test \(got "staging"\)/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
    ['TRUST_PROXY', 'maybe', /TRUST_PROXY must be true or false/],
    ['CORS_ORIGINS', 'admin.example.com', /CORS_ORIGINS must be a comma-separated list of origins/],
    ['CORS_ORIGINS', 'https://admin.example.com/', /got "https:\/\/admin.example.com\/"/],
    ['CORS_ORIGINS', 'https://a.example.com,https://b.example.com/app', /got "https:\/\/b.example.com\/app"/],
    ['CORS_ORIGINS', 'ftp://files.example.com', /CORS_ORIGINS must be a comma-separated list of origins/],
    ['BODY_LIMIT_BYTES', '10', /BODY_LIMIT_BYTES must be a number from 1024/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/],
    ['REDIS_URL', 'http://x', /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    ['JWT_SECRET', 'short', /JWT_SECRET must be at least 32 bytes long/],
    ['JWT_ACCESS_TTL_MINUTES', '0', /JWT_ACCESS_TTL_MINUTES must be a number from 1/],
    ['OTP_DEV_FIXED_CODE', '12ab', /OTP_DEV_FIXED_CODE must be 4 to 10 digits/],
    ['OTP_DEV_FIXED_CODE', '123', /OTP_DEV_FIXED_CODE must be 4 to 10 digits/],
    ['OTP_DEV_FIXED_CODE', '12345678901', /OTP_DEV_FIXED_CODE must be 4 to 10 digits/],
    ['CURRENCY', 'dollars', /CURRENCY must be an ISO 4217 code/],
    ['PLATFORM_COMMISSION_PERCENT', '101', /PLATFORM_COMMISSION_PERCENT must be a number from 0 to 100/],
    ['MATCHING_RADIUS_KM', 'NaN', /MATCHING_RADIUS_KM must be a number/],
    ['DRIVER_LOCATION_MAX_AGE_SECONDS', '0', /DRIVER_LOCATION_MAX_AGE_SECONDS must be a number from 1 to 3600/],
    ['DRIVER_LOCATION_MAX_AGE_SECONDS', '1.5', /DRIVER_LOCATION_MAX_AGE_SECONDS must be a whole number/],
    ['DRIVER_AUTO_APPROVE', 'sometimes', /DRIVER_AUTO_APPROVE must be true or false/],
    ['CHAT_MESSAGES_PER_MINUTE', '-1', /CHAT_MESSAGES_PER_MINUTE must be a number from 0/],
  ])('a bad %s (%s) names the variable', (variable, value, message) => {
    const err = failure({ [variable]: value });
    expect(err.variable).toBe(variable);
    expect(err.message).toMatch(/^Invalid configuration: /);
    expect(err.message).toMatch(message);
  });

  it('refuses production without JWT_SECRET', () => {
    const err = failure({ NODE_ENV: 'production' });
    expect(err.variable).toBe('JWT_SECRET');
    expect(err.message).toContain('required when NODE_ENV=production');
  });

  it('refuses a JWT_SECRET shorter than 32 bytes in any environment', () => {
    expect(failure({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(31) }).variable).toBe('JWT_SECRET');
    expect(failure({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(31) }).variable).toBe('JWT_SECRET');
    // Bytes, not characters: 11 three-byte characters are 33 bytes.
    expect(AppConfig.fromEnv({ JWT_SECRET: '€'.repeat(11) }).jwtSecret).toBe('€'.repeat(11));
  });

  it('production with a secret starts, and auto-approval of drivers is off by default', () => {
    const config = AppConfig.fromEnv({ NODE_ENV: 'production', JWT_SECRET: SECRET, ...MAIL });
    expect(config.jwtSecret).toBe(SECRET);
    expect(config.jwtSecretGenerated).toBe(false);
    expect(config.driverAutoApprove).toBe(false);
    expect(config.isProduction).toBe(true);
  });

  it('without JWT_SECRET outside production, generates a random one and says so', () => {
    const a = AppConfig.fromEnv({});
    const b = AppConfig.fromEnv({});
    expect(a.jwtSecretGenerated).toBe(true);
    expect(Buffer.byteLength(a.jwtSecret)).toBeGreaterThanOrEqual(32);
    expect(a.jwtSecret).not.toBe(b.jwtSecret);
  });

  it('uses OTP_DEV_FIXED_CODE only in development', () => {
    expect(AppConfig.fromEnv({ NODE_ENV: 'development', OTP_DEV_FIXED_CODE: '123456' }).otpDevFixedCode).toBe('123456');
    expect(AppConfig.fromEnv({ NODE_ENV: 'test', OTP_DEV_FIXED_CODE: '123456' }).otpDevFixedCode).toBeUndefined();
    expect(() => AppConfig.fromEnv({ NODE_ENV: 'production', JWT_SECRET: SECRET, OTP_DEV_FIXED_CODE: '123456' })).toThrow(
      /OTP_DEV_FIXED_CODE must not be set when NODE_ENV=production/,
    );
    expect(AppConfig.fromEnv({ OTP_DEV_FIXED_CODE: '1234' }).otpDevFixedCode).toBe('1234');
    expect(AppConfig.fromEnv({ OTP_DEV_FIXED_CODE: '1234567890' }).otpDevFixedCode).toBe('1234567890');
  });

  it('treats blank values as unset and trims values', () => {
    const config = AppConfig.fromEnv({ PORT: '  ', DATABASE_URL: '', LOG_LEVEL: ' debug ', CURRENCY: 'eur' });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.logLevel).toBe('debug');
    expect(config.currency).toBe('EUR');
  });

  it('parses booleans in the usual spellings', () => {
    for (const value of ['true', '1', 'yes', 'on', 'TRUE']) expect(AppConfig.fromEnv({ TRUST_PROXY: value }).trustProxy).toBe(true);
    for (const value of ['false', '0', 'no', 'off']) expect(AppConfig.fromEnv({ RUN_MIGRATIONS: value }).runMigrations).toBe(false);
  });

  it('accepts external PostgreSQL and Redis URLs and strips a trailing slash from PUBLIC_BASE_URL', () => {
    const config = AppConfig.fromEnv({
      DATABASE_URL: 'postgresql://app:pw@db:5432/rides',
      REDIS_URL: 'rediss://cache:6380',
      PUBLIC_BASE_URL: 'https://api.example.com//',
    });
    expect(config.databaseUrl).toBe('postgresql://app:pw@db:5432/rides');
    expect(config.redisUrl).toBe('rediss://cache:6380');
    expect(config.publicBaseUrl).toBe('https://api.example.com');
  });

  it('reads CORS_ORIGINS as a list of exact origins; * only outside production', () => {
    expect(AppConfig.fromEnv({ CORS_ORIGINS: ' https://admin.example.com, http://localhost:5173 ,,' }).corsOrigins).toEqual([
      'https://admin.example.com',
      'http://localhost:5173',
    ]);
    expect(AppConfig.fromEnv({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    const err = failure({ NODE_ENV: 'production', JWT_SECRET: SECRET, CORS_ORIGINS: '*' });
    expect(err.variable).toBe('CORS_ORIGINS');
    expect(err.message).toMatch(/not \*/);
    expect(AppConfig.fromEnv({ NODE_ENV: 'production', JWT_SECRET: SECRET, ...MAIL, CORS_ORIGINS: 'https://admin.example.com' }).corsOrigins).toEqual([
      'https://admin.example.com',
    ]);
  });
});
