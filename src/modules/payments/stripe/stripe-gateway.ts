import type Stripe from 'stripe';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../../../common/errors/outage';
import { RetryBudget, withOneRetry } from '../../../common/errors/one-retry';
import { PaymentError } from '../payments.errors';
import { StripeRefusal } from './stripe-refusal';

/**
 * The library (1.1 MB of JavaScript) is loaded when the first gateway is made, so an instance
 * without Stripe settings, and every test file that boots the app, does not compile it.
 */
function stripeLibrary(): typeof Stripe {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
  return require('stripe') as typeof Stripe;
}

/** Stripe unreachable, 5xx or 429: one retry, 10 s in all (CONTRACT §12). */
export const STRIPE_BUDGET: RetryBudget = { budgetMs: 10_000, firstAttemptMs: 6_000, pauseMs: 250 };

export interface StripeSettings {
  secretKey: string;
  /** http(s)://host[:port], no path. */
  apiBase: string;
  webhookSecret: string | undefined;
}

export interface StripeCard {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  created: number;
}

export interface HoldRequest {
  amountMinor: number;
  currency: string;
  customerId: string;
  cardId: string;
  rideId: string;
  /** Manual capture (a fare's hold) or charged at once (a tip). */
  capture: 'manual' | 'automatic';
  idempotencyKey: string;
}

/**
 * Stripe's API through the official library, and nothing else of it: every POST carries the
 * Idempotency-Key its caller names after the business action, so the one retry (and a client's
 * retry of the same action) can never charge or pay twice. Stripe's own retries are off: this class
 * retries 5xx, 429 and unreachable once within STRIPE_BUDGET, then answers 503 (PaymentError with
 * Retry-After). Any other refusal is a StripeRefusal for the service to judge.
 */
export class StripeGateway {
  private readonly stripe: Stripe;

  constructor(
    private readonly settings: StripeSettings,
    private readonly budget: RetryBudget = STRIPE_BUDGET,
  ) {
    const base = new URL(settings.apiBase);
    const StripeClient = stripeLibrary();
    this.stripe = new StripeClient(settings.secretKey, {
      host: base.hostname,
      port: base.port || (base.protocol === 'https:' ? 443 : 80),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
      maxNetworkRetries: 0,
      timeout: budget.firstAttemptMs,
      telemetry: false,
      appInfo: { name: 'ride-hailing-backend' },
    });
  }

  async createCustomer(userId: number, idempotencyKey: string): Promise<string> {
    const customer = await this.call((o) => this.stripe.customers.create({ metadata: { user_id: String(userId) } }, { ...o, idempotencyKey }));
    return customer.id;
  }

  async createSetupIntent(customerId: string, idempotencyKey: string): Promise<{ id: string; clientSecret: string }> {
    const intent = await this.call((o) => this.stripe.setupIntents.create({ customer: customerId, usage: 'off_session' }, { ...o, idempotencyKey }));
    return { id: intent.id, clientSecret: intent.client_secret ?? '' };
  }

  /** The customer's cards, newest first (Stripe's order). */
  async listCards(customerId: string): Promise<StripeCard[]> {
    const list = await this.call((o) => this.stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 }, o));
    return list.data.map((pm) => ({
      id: pm.id,
      brand: pm.card?.brand ?? 'unknown',
      last4: pm.card?.last4 ?? '',
      expMonth: pm.card?.exp_month ?? 0,
      expYear: pm.card?.exp_year ?? 0,
      created: pm.created,
    }));
  }

  async detachCard(cardId: string, idempotencyKey: string): Promise<void> {
    await this.call((o) => this.stripe.paymentMethods.detach(cardId, {}, { ...o, idempotencyKey }));
  }

  /** A confirmed, off-session PaymentIntent: `requires_capture` (manual) or `succeeded` (automatic). */
  async createPayment(request: HoldRequest): Promise<{ id: string; status: string }> {
    const intent = await this.call((o) =>
      this.stripe.paymentIntents.create(
        {
          amount: request.amountMinor,
          currency: request.currency.toLowerCase(),
          customer: request.customerId,
          payment_method: request.cardId,
          capture_method: request.capture,
          confirm: true,
          off_session: true,
          metadata: { ride_id: request.rideId },
        },
        { ...o, idempotencyKey: request.idempotencyKey },
      ),
    );
    return { id: intent.id, status: intent.status };
  }

  async capture(paymentIntentId: string, amountToCaptureMinor: number, idempotencyKey: string): Promise<{ status: string; amountReceived: number }> {
    const intent = await this.call((o) =>
      this.stripe.paymentIntents.capture(paymentIntentId, { amount_to_capture: amountToCaptureMinor }, { ...o, idempotencyKey }),
    );
    return { status: intent.status, amountReceived: intent.amount_received };
  }

  async cancel(paymentIntentId: string, idempotencyKey: string): Promise<{ status: string }> {
    const intent = await this.call((o) => this.stripe.paymentIntents.cancel(paymentIntentId, {}, { ...o, idempotencyKey }));
    return { status: intent.status };
  }

  async refund(paymentIntentId: string, amountMinor: number, rideId: string, idempotencyKey: string): Promise<string> {
    const refund = await this.call((o) =>
      this.stripe.refunds.create({ payment_intent: paymentIntentId, amount: amountMinor, metadata: { ride_id: rideId } }, { ...o, idempotencyKey }),
    );
    return refund.id;
  }

  async createExpressAccount(driverId: number, country: string, idempotencyKey: string): Promise<string> {
    const account = await this.call((o) =>
      this.stripe.accounts.create(
        { type: 'express', country, capabilities: { transfers: { requested: true } }, metadata: { driver_id: String(driverId) } },
        { ...o, idempotencyKey },
      ),
    );
    return account.id;
  }

  async createOnboardingLink(accountId: string, refreshUrl: string, returnUrl: string, idempotencyKey: string): Promise<string> {
    const link = await this.call((o) =>
      this.stripe.accountLinks.create(
        { account: accountId, type: 'account_onboarding', refresh_url: refreshUrl, return_url: returnUrl },
        { ...o, idempotencyKey },
      ),
    );
    return link.url;
  }

  async transfer(amountMinor: number, currency: string, destination: string, payoutId: string, idempotencyKey: string): Promise<string> {
    const transfer = await this.call((o) =>
      this.stripe.transfers.create(
        { amount: amountMinor, currency: currency.toLowerCase(), destination, metadata: { payout_id: payoutId } },
        { ...o, idempotencyKey },
      ),
    );
    return transfer.id;
  }

  /**
   * The event of a webhook delivery, after the library's own check of `Stripe-Signature` against
   * the raw body (HMAC-SHA256, any v1, 300 s tolerance); undefined when it does not verify.
   */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): Stripe.Event | undefined {
    if (!this.settings.webhookSecret || !signature) return undefined;
    try {
      return this.stripe.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret, 300);
    } catch {
      return undefined;
    }
  }

  /** One call, retried once within the budget when Stripe is unreachable, overloaded or failing. */
  private async call<T>(request: (options: Stripe.RequestOptions) => Promise<T>): Promise<T> {
    try {
      return await withOneRetry(this.budget, (timeout) => request({ timeout: Math.max(1, Math.floor(timeout)), maxNetworkRetries: 0 }), isWorthRetry);
    } catch (err) {
      if (isWorthRetry(err)) throw new PaymentError('PAYMENT_PROVIDER_UNAVAILABLE', undefined, OUTAGE_RETRY_AFTER_SECONDS);
      throw asRefusal(err);
    }
  }
}

function isWorthRetry(err: unknown): boolean {
  const { errors } = stripeLibrary();
  if (err instanceof errors.StripeConnectionError || err instanceof errors.StripeRateLimitError) return true;
  if (err instanceof errors.StripeError) {
    const status = err.statusCode ?? 0;
    // 409: another request with this key is still running at Stripe.
    return status >= 500 || status === 429 || status === 409 || status === 0;
  }
  return false;
}

function asRefusal(err: unknown): unknown {
  if (!(err instanceof stripeLibrary().errors.StripeError)) return err;
  const intent = (err.raw as { payment_intent?: { id?: unknown } } | undefined)?.payment_intent;
  return new StripeRefusal(err.statusCode ?? 400, err.rawType, err.code, err.decline_code, typeof intent?.id === 'string' ? intent.id : undefined, err.message);
}
