/**
 * Stripe answered, and said no (a 4xx other than 429): a card decline (402), a refused transfer, an
 * unknown object. Not worth a retry; the service decides what it means for the caller.
 */
export class StripeRefusal extends Error {
  constructor(
    readonly status: number,
    /** Stripe's error type: card_error, invalid_request_error, idempotency_error, … */
    readonly type: string | undefined,
    readonly code: string | undefined,
    readonly declineCode: string | undefined,
    /** The PaymentIntent a decline left behind (requires_payment_method), when Stripe names it. */
    readonly paymentIntentId: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'StripeRefusal';
  }

  get isDecline(): boolean {
    return this.status === 402;
  }
}
