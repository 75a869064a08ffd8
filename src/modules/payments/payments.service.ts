import { Injectable } from '@nestjs/common';
import { CardsService } from './cards/cards.service';
import { PayoutsService } from './payouts/payouts.service';
import { CardPaymentsRepository } from './ride-payments/card-payments.repository';
import { CaptureOutcome, CardHold, RideCardPaymentsService } from './ride-payments/ride-card-payments.service';
import { RefundRequest, RefundsService, RefundTotals, RefundView } from './ride-payments/refunds.service';
import { StripeAccess } from './stripe/stripe-access';

export type { CaptureOutcome, CardHold, RefundRequest, RefundTotals, RefundView };

/** What a ride's card payment stands at (phase 2 derives the ride's `payment_status` from it). */
export interface RideCardPaymentSummary {
  /** The live fare payment's status, or the latest attempt's when none is live (`declined`, `released`, `failed`); null: never held. */
  status: 'held' | 'captured' | 'released' | 'declined' | 'failed' | null;
  /** What the fare's payment took (the fare, or a fee from the hold). */
  capturedMinor: number;
  /** A card tip's amount, or 0. */
  tipMinor: number;
  /** The total of the ride's refunds. */
  refundedMinor: number;
}

/**
 * The payments module's face for the others: the ride commands (phase 2: accept, complete, cancel,
 * no-show, tip, the operator's refund) and the driver profile call it. Every operation is safe to
 * retry and records its ledger entries exactly once (see RideCardPaymentsService, RefundsService).
 */
@Injectable()
export class PaymentsService {
  constructor(
    private readonly stripe: StripeAccess,
    private readonly cards: CardsService,
    private readonly rides: RideCardPaymentsService,
    private readonly refunds: RefundsService,
    private readonly payments: CardPaymentsRepository,
    private readonly payouts: PayoutsService,
  ) {}

  /** Whether STRIPE_SECRET_KEY is set. */
  get cardPaymentsAvailable(): boolean {
    return this.stripe.available;
  }

  /** Booking with `card`: 400 "Card payments are not available" without Stripe, 400 "Add a card to pay by card" without a saved card. */
  async requireSavedCard(passengerId: number): Promise<void> {
    await this.cards.defaultCard(passengerId);
  }

  /** Accept: holds fare × (100 + CARD_HOLD_MARGIN_PERCENT) / 100 on the default card (`ride:{id}:hold`, `:hold:2`, …). 402 on a decline, 409 when a hold is live. */
  holdFare(input: { rideId: string; passengerId: number; fareMinor: number }): Promise<CardHold> {
    return this.rides.holdFare(input);
  }

  /** Complete: captures the fare (`ride:{id}:capture`); `failed` when Stripe refuses. Books the driver's share and the commission once. */
  captureFare(input: { rideId: string; driverId: number; fareMinor: number; commissionMinor: number }): Promise<CaptureOutcome> {
    return this.rides.captureFare(input);
  }

  /** Cancel without a fee, or an accept that failed after its hold: cancels the live hold (`ride:{id}:release`). False when none was live. */
  releaseHold(rideId: string): Promise<boolean> {
    return this.rides.releaseHold(rideId);
  }

  /** A late cancel or a no-show on a card ride: captures the fee (`ride:{id}:fee`), Stripe releases the rest. */
  chargeFeeFromHold(input: { rideId: string; driverId: number; feeMinor: number }): Promise<CaptureOutcome> {
    return this.rides.chargeFeeFromHold(input);
  }

  /** A tip on a card ride: its own PaymentIntent on the card the ride was held on (`ride:{id}:tip`). 402 on a decline. */
  chargeTip(input: { rideId: string; passengerId: number; driverId: number; amountMinor: number }): Promise<{ paymentId: string }> {
    return this.rides.chargeTip(input);
  }

  /** An operator's refund (`refund:{id}`): card rides through Stripe (fare first, then tip), wallet rides to the wallet; 409 above what was paid. */
  refund(request: RefundRequest): Promise<RefundView> {
    return this.refunds.refund(request);
  }

  async rideCardPayment(rideId: string): Promise<RideCardPaymentSummary> {
    const fare = (await this.payments.findLive(rideId, 'fare')) ?? (await this.payments.findLatest(rideId, 'fare'));
    const tip = await this.payments.findLive(rideId, 'tip');
    return {
      status: fare?.status ?? null,
      capturedMinor: fare?.status === 'captured' ? fare.capturedMinor : 0,
      tipMinor: tip?.capturedMinor ?? 0,
      refundedMinor: await this.refunds.totalRefunded(rideId),
    };
  }

  /** The driver profile's `payouts_enabled`. */
  payoutsEnabled(driverId: number): Promise<boolean> {
    return this.payouts.payoutsEnabled(driverId);
  }
}
