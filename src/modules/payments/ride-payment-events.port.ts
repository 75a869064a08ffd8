import type { EntityManager } from 'typeorm';

/** A PaymentIntent of a ride that Stripe cancelled (an uncaptured hold expires after 7 days). */
export interface HoldCanceledEvent {
  rideId: string;
  paymentIntentId: string;
}

/** A charge of a ride refunded (a refund made in Stripe's dashboard, or one of ours seen again). */
export interface ChargeRefundedEvent {
  rideId: string;
  paymentIntentId: string;
  /** The total refunded on this charge so far, and each refund Stripe made. */
  amountRefundedMinor: number;
  refunds: Array<{ id: string; amountMinor: number }>;
  /** The ride's totals once the refunds made elsewhere are recorded: what its passenger paid, and what was refunded in all. */
  ride?: { paidMinor: number; refundedMinor: number };
}

/** What the port asks to do once the webhook's transaction has committed (announce the change). */
export type AfterCommit = () => void | Promise<void>;

/**
 * How payments tells rides what Stripe did to a ride's money. Rides come after payments in the
 * layers, so payments names what it needs here and the composition root binds it (phase 2 of
 * issue 24: `payment_intent.canceled` → `payment_status: "failed"` on a held ride; `charge.refunded`
 * → `refunded_amount` follows the charge's refunds, with its ledger entry). Each method runs inside
 * the webhook's transaction, the one that records the event id, so its effect happens once.
 */
export abstract class RidePaymentEventsPort {
  abstract holdCanceled(event: HoldCanceledEvent, manager: EntityManager): Promise<AfterCommit | void>;
  abstract chargeRefunded(event: ChargeRefundedEvent, manager: EntityManager): Promise<AfterCommit | void>;
}
