import { toMinor } from '../common/money';
import { RideSettings } from './ride-settings';
import { Earlier, Setting } from './settings';

/** AppConfig's payments group (see AppConfig): cards, fees and payouts. */
export class PaymentSettings extends RideSettings {
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

function twoDecimalsProblem(amount: number): string | undefined {
  return toMinor(amount) === undefined ? 'must have at most 2 decimals' : undefined;
}

function majorToMinor(amount: number): number {
  return toMinor(amount)!;
}
