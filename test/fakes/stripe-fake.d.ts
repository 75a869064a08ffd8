/** Types of stripe-fake.js (a local stand-in for Stripe's API; see that file). */
/** A form parameter, brackets expanded. */
export type StripeParam = string | StripeParam[] | { [key: string]: StripeParam };
/** An object as Stripe answers it. */
export interface StripeObject {
  id: string;
  object?: string;
  status?: string;
  amount?: number;
  customer?: string | null;
  metadata?: Record<string, string>;
  [key: string]: unknown;
}
export interface StripeFakeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** The form body, brackets expanded into objects. */
  body: Record<string, StripeParam>;
  raw: string;
  /** The status this fake answered (0: no answer). */
  status: number;
  /** Answered from the idempotency store. */
  replayed: boolean;
  response?: StripeObject | { error: Record<string, unknown> };
}

export type StripeFakeScript = 500 | 502 | 503 | 429 | 'hang' | 'drop';

export interface StripeFake {
  /** STRIPE_API_BASE */
  url: string;
  secretKey: string;
  webhookSecret: string;
  requests: StripeFakeRequest[];
  posts(): StripeFakeRequest[];
  /** The next answers, one per request, after the key check. */
  script: StripeFakeScript[];
  /** Every request answers like this until cleared. */
  outage: StripeFakeScript | undefined;
  objects: Record<'customer' | 'setup_intent' | 'payment_method' | 'payment_intent' | 'charge' | 'refund' | 'account' | 'transfer', Map<string, StripeObject>>;
  refuseNextTransfer(): void;
  confirmSetupIntent(setupIntentId: string, testCard?: string): { setupIntent: StripeObject; paymentMethod: StripeObject };
  attachTestCard(customerId: string, testCard?: string): StripeObject;
  completeOnboarding(accountId: string, enabled?: boolean): StripeObject;
  refundInDashboard(paymentIntentId: string, amount: number): StripeObject;
  signatureHeader(payload: string, secret?: string, timestamp?: number): string;
  event(type: string, object: StripeObject, eventId?: string): { id: string; type: string; data: { object: StripeObject }; [key: string]: unknown };
  sendWebhook(url: string, event: object, sign?: { secret?: string; timestamp?: number; header?: string }): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

export function startStripeFake(options?: { secretKey?: string; webhookSecret?: string; port?: number }): Promise<StripeFake>;
export function signatureHeader(payload: string, secret: string, timestamp?: number): string;
export const TEST_CARDS: Record<string, { brand: string; last4: string; decline?: string }>;
