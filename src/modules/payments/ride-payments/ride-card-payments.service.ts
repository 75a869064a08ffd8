import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { WalletsService } from '../../wallets/wallets.service';
import { CardsService } from '../cards/cards.service';
import { PaymentCustomersRepository } from '../cards/payment-customers.repository';
import { PaymentError } from '../payments.errors';
import { StripeKeys } from '../payments.keys';
import { StripeAccess } from '../stripe/stripe-access';
import { StripeRefusal } from '../stripe/stripe-refusal';
import { CardPaymentRow, CardPaymentsRepository } from './card-payments.repository';

export interface CardHold {
  paymentId: string;
  paymentIntentId: string;
  amountMinor: number;
  cardId: string;
}

export interface CaptureOutcome {
  status: 'captured' | 'failed';
  capturedMinor: number;
}

type Charged = { ok: true; intentId: string } | { ok: false; refusal: StripeRefusal };

/**
 * A ride's card money (CONTRACT §12): the hold at acceptance, its capture at completion, its
 * release on a cancel, a fee taken from it, a tip charged to the same card.
 *
 * Each operation is one transaction that holds a lock across one bounded Stripe call (STRIPE_BUDGET,
 * 10 s): new PaymentIntents lock the passenger's customer row (a passenger's holds, tips and card
 * detaches take turns), captures and releases lock the payment's row. So two instances racing the
 * same operation make one Stripe call each with the same Idempotency-Key at most, and the second
 * finds the first's record and records nothing. An outage rolls the transaction back: nothing is
 * recorded, and the retry sends the same key (Stripe answers what it did the first time).
 */
@Injectable()
export class RideCardPaymentsService {
  private readonly logger = new Logger('RideCardPayments');

  constructor(
    private readonly stripe: StripeAccess,
    private readonly cards: CardsService,
    private readonly customers: PaymentCustomersRepository,
    private readonly payments: CardPaymentsRepository,
    private readonly wallets: WalletsService,
    private readonly config: AppConfig,
  ) {}

  /** fare × (100 + CARD_HOLD_MARGIN_PERCENT) / 100, rounded up to the minor unit. */
  holdAmount(fareMinor: number): number {
    return Math.ceil((fareMinor * (100 + this.config.cardHoldMarginPercent)) / 100);
  }

  /**
   * Holds the fare plus the margin on the passenger's default card (manual capture, off-session).
   * 402 "Your card was declined" on a decline (the attempt is recorded, the next one gets a new key);
   * 409 while another hold of the ride is live.
   */
  async holdFare(input: { rideId: string; passengerId: number; fareMinor: number }): Promise<CardHold> {
    this.stripe.forCards();
    const { customer, card } = await this.cards.defaultCard(input.passengerId);
    const amountMinor = this.holdAmount(input.fareMinor);
    const outcome = await this.payments.runInTransaction(async (tx) => {
      await this.customers.lock(input.passengerId, tx);
      if (await this.payments.findLive(input.rideId, 'fare', tx)) throw new PaymentError('PAYMENT_ALREADY_HELD');
      const attempt = await this.payments.nextAttempt(input.rideId, 'fare', tx);
      const charged = await this.createIntent(input.rideId, 'hold', attempt, {
        amountMinor,
        currency: this.config.currency,
        customerId: customer.stripeCustomerId,
        cardId: card.id,
        capture: 'manual',
      });
      const paymentId = randomUUID();
      const row = {
        id: paymentId,
        rideId: input.rideId,
        userId: input.passengerId,
        purpose: 'fare' as const,
        attempt,
        cardId: card.id,
        amountMinor,
        currency: this.config.currency,
      };
      if (!charged.ok) {
        await this.payments.insert({ ...row, status: 'declined', stripePaymentIntentId: charged.refusal.paymentIntentId ?? null, capturedMinor: 0 }, tx);
        return charged;
      }
      await this.recordOrRelease(charged.intentId, input.rideId, attempt, () =>
        this.payments.insert({ ...row, status: 'held', stripePaymentIntentId: charged.intentId, capturedMinor: 0 }, tx),
      );
      return { ok: true as const, hold: { paymentId, paymentIntentId: charged.intentId, amountMinor, cardId: card.id } };
    });
    if (!outcome.ok) throw declined(outcome.refusal);
    return (outcome as { hold: CardHold }).hold;
  }

  /**
   * Captures the fare (at most the hold) and books it: the driver's wallet gets it less the
   * commission. A capture Stripe refuses (the hold expired, was cancelled) marks the payment failed.
   * Exactly once: a second call (a retry, another instance) finds it captured and books nothing.
   */
  async captureFare(input: { rideId: string; driverId: number; fareMinor: number; commissionMinor: number }): Promise<CaptureOutcome> {
    return this.captureFromHold(input.rideId, 'capture', input.fareMinor, (tx, row, amount) =>
      this.wallets.recordCardPayment(tx, {
        transferId: row.id,
        rideId: input.rideId,
        driverId: input.driverId,
        amountMinor: amount,
        commissionMinor: Math.min(input.commissionMinor, amount),
        purpose: 'fare',
      }),
    );
  }

  /** A cancellation fee taken from the hold (the rest released by Stripe), paid to the driver with no commission. */
  async chargeFeeFromHold(input: { rideId: string; driverId: number; feeMinor: number }): Promise<CaptureOutcome> {
    return this.captureFromHold(input.rideId, 'fee', input.feeMinor, (tx, row, amount) =>
      this.wallets.recordCardPayment(tx, {
        transferId: row.id,
        rideId: input.rideId,
        driverId: input.driverId,
        amountMinor: amount,
        commissionMinor: 0,
        purpose: 'fee',
      }),
    );
  }

  /** Cancels the ride's live hold, if any (a cancel without a fee, a failed accept). */
  async releaseHold(rideId: string): Promise<boolean> {
    const gateway = this.stripe.forCards();
    return this.payments.runInTransaction(async (tx) => {
      const row = await this.payments.findLive(rideId, 'fare', tx, true);
      if (!row || row.status !== 'held') return false;
      try {
        await gateway.cancel(row.stripePaymentIntentId!, StripeKeys.ride(rideId, 'release', row.attempt));
      } catch (err) {
        // Already cancelled at Stripe (the hold expired): released all the same.
        if (!(err instanceof StripeRefusal)) throw err;
      }
      await this.payments.setStatus(row.id, 'released', tx);
      return true;
    });
  }

  /** A tip charged to the card the ride was held on (its own PaymentIntent), paid to the driver with no commission. */
  async chargeTip(input: { rideId: string; passengerId: number; driverId: number; amountMinor: number }): Promise<{ paymentId: string }> {
    this.stripe.forCards();
    const fare = await this.payments.findLatest(input.rideId, 'fare');
    const customer = await this.customers.find(input.passengerId);
    if (!fare || !customer) throw new PaymentError('NO_HELD_PAYMENT');
    const outcome = await this.payments.runInTransaction(async (tx) => {
      await this.customers.lock(input.passengerId, tx);
      if (await this.payments.findLive(input.rideId, 'tip', tx)) throw new PaymentError('TIP_ALREADY_CHARGED');
      const attempt = await this.payments.nextAttempt(input.rideId, 'tip', tx);
      const charged = await this.createIntent(input.rideId, 'tip', attempt, {
        amountMinor: input.amountMinor,
        currency: this.config.currency,
        customerId: customer.stripeCustomerId,
        cardId: fare.cardId,
        capture: 'automatic',
      });
      const paymentId = randomUUID();
      const row = {
        id: paymentId,
        rideId: input.rideId,
        userId: input.passengerId,
        purpose: 'tip' as const,
        attempt,
        cardId: fare.cardId,
        amountMinor: input.amountMinor,
        currency: this.config.currency,
      };
      if (!charged.ok) {
        await this.payments.insert({ ...row, status: 'declined', stripePaymentIntentId: charged.refusal.paymentIntentId ?? null, capturedMinor: 0 }, tx);
        return charged;
      }
      await this.payments.insert({ ...row, status: 'captured', stripePaymentIntentId: charged.intentId, capturedMinor: input.amountMinor }, tx);
      await this.wallets.recordCardPayment(tx, {
        transferId: paymentId,
        rideId: input.rideId,
        driverId: input.driverId,
        amountMinor: input.amountMinor,
        commissionMinor: 0,
        purpose: 'tip',
      });
      return { ok: true as const, paymentId };
    });
    if (!outcome.ok) throw declined(outcome.refusal);
    return { paymentId: (outcome as { paymentId: string }).paymentId };
  }

  private async captureFromHold(
    rideId: string,
    action: 'capture' | 'fee',
    wantedMinor: number,
    book: (tx: EntityManager, row: CardPaymentRow, amountMinor: number) => Promise<void>,
  ): Promise<CaptureOutcome> {
    const gateway = this.stripe.forCards();
    return this.payments.runInTransaction(async (tx) => {
      const row = await this.payments.findLive(rideId, 'fare', tx, true);
      if (!row) throw new PaymentError('NO_HELD_PAYMENT');
      if (row.status === 'captured') return { status: 'captured', capturedMinor: row.capturedMinor };
      const amount = Math.min(wantedMinor, row.amountMinor);
      try {
        await gateway.capture(row.stripePaymentIntentId!, amount, StripeKeys.ride(rideId, action, row.attempt));
      } catch (err) {
        if (!(err instanceof StripeRefusal)) throw err;
        this.logger.warn({ msg: 'Stripe refused a capture', ride_id: rideId, code: err.code, detail: err.message });
        await this.payments.setStatus(row.id, 'failed', tx);
        return { status: 'failed', capturedMinor: 0 };
      }
      await this.payments.setStatus(row.id, 'captured', tx, amount);
      await book(tx, row, amount);
      return { status: 'captured', capturedMinor: amount };
    });
  }

  /**
   * One PaymentIntent, confirmed off-session. A decline is an answer, not an error; a key Stripe
   * already saw with other parameters (an attempt whose answer was lost in an outage) moves on to
   * the next attempt's key once.
   */
  private async createIntent(
    rideId: string,
    action: 'hold' | 'tip',
    attempt: number,
    request: { amountMinor: number; currency: string; customerId: string; cardId: string; capture: 'manual' | 'automatic' },
  ): Promise<Charged> {
    const gateway = this.stripe.forCards();
    for (let n = attempt; ; n += 1) {
      try {
        const intent = await gateway.createPayment({ ...request, rideId, idempotencyKey: StripeKeys.ride(rideId, action, n) });
        const expected = request.capture === 'manual' ? 'requires_capture' : 'succeeded';
        if (intent.status !== expected)
          throw new StripeRefusal(402, 'card_error', 'authentication_required', undefined, intent.id, `PaymentIntent is ${intent.status}`);
        return { ok: true, intentId: intent.id };
      } catch (err) {
        if (err instanceof StripeRefusal && err.type === 'idempotency_error' && n === attempt) continue;
        if (err instanceof StripeRefusal) return { ok: false, refusal: err };
        throw err;
      }
    }
  }

  /** The hold is recorded, or cancelled when it cannot be: no hold is ever left behind unrecorded. */
  private async recordOrRelease(intentId: string, rideId: string, attempt: number, record: () => Promise<void>): Promise<void> {
    try {
      await record();
    } catch (err) {
      await this.stripe
        .forCards()
        .cancel(intentId, StripeKeys.ride(rideId, 'release', attempt))
        .catch((cancelErr: unknown) =>
          this.logger.error({ msg: 'Could not cancel an unrecorded hold', ride_id: rideId, payment_intent: intentId, err: cancelErr }),
        );
      throw err;
    }
  }
}

/** Any refusal of a new PaymentIntent (a decline, a card no longer usable) is the same answer to the passenger. */
function declined(_refusal: StripeRefusal): PaymentError {
  return new PaymentError('CARD_DECLINED');
}
