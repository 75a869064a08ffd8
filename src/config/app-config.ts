import { randomBytes } from 'node:crypto';
import { ConfigError } from './config-error';
import { OutreachConfig, OutreachEnv, parseOutreach } from './outreach-config';
import { PaymentSettings } from './payment-settings';
import { Env, readSettings, Setting } from './settings';

export { ConfigError };
export type { NodeEnv } from './service-settings';

/**
 * Every setting the service reads, parsed and validated once at start-up. Each is declared once, by
 * the decorator on its field (src/config/settings.ts): the variable (the field in SCREAMING_SNAKE_CASE),
 * its kind, default and bounds. src/config/env-docs.spec.ts holds .env.example and the table of docs/configuration.md
 * to those declarations. Fields without a decorator are derived in fromEnv.
 *
 * The fields stand in groups, one file each, chained by inheritance because settings are read in declaration
 * order, ancestors first, and a check may depend on a field read before it (NODE_ENV, STRIPE_SECRET_KEY):
 * service-settings.ts (process, stores, sign-in, rate limits) ← ride-settings.ts ← payment-settings.ts ← this class.
 */
export class AppConfig extends PaymentSettings {
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
