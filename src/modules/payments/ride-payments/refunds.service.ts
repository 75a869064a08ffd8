import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CommonError } from '../../../common/errors/common.errors';
import { AppConfig } from '../../../config/app-config';
import { toMajor } from '../../../common/money';
import { WalletsService } from '../../wallets/wallets.service';
import { PaymentError } from '../payments.errors';
import { StripeKeys } from '../payments.keys';
import { StripeAccess } from '../stripe/stripe-access';
import { CardPaymentsRepository } from './card-payments.repository';
import { PaymentRefundRow, PaymentRefundsRepository } from './payment-refunds.repository';

/** A refund as the operator endpoint answers it (CONTRACT §12). */
export interface RefundView {
  id: string;
  ride_id: string;
  amount: number;
  currency: string;
  created_at: string;
}

export interface RefundRequest {
  /** The refund's id, also its Stripe key (`refund:{id}`): a retry with the same id refunds once. */
  refundId: string;
  rideId: string;
  passengerId: number;
  amountMinor: number;
  reason: string | null;
  /**
   * Runs last in the refund's transaction, with the ride's totals after it: the caller's own writes
   * that must commit with the refund or not at all (the ride's refunded amount, the audit entry).
   */
  within?: (tx: EntityManager, totals: RefundTotals) => Promise<void>;
}

/** A ride's money after a refund: what the passenger paid for it, and what was refunded in all. */
export interface RefundTotals {
  paidMinor: number;
  refundedMinor: number;
}

/**
 * Refunds of a ride, never above what the passenger paid for it (fare or fee, and tip), borne by the
 * platform (the driver's earnings stand). A card ride is refunded through Stripe, first against the
 * fare's payment, then the tip's; a wallet ride back to the wallet. The ride's captured payments are
 * locked for the whole refund, Stripe calls included (bounded): concurrent refunds of one ride take
 * turns and each sees what the one before it refunded.
 */
@Injectable()
export class RefundsService {
  constructor(
    private readonly stripe: StripeAccess,
    private readonly payments: CardPaymentsRepository,
    private readonly refunds: PaymentRefundsRepository,
    private readonly wallets: WalletsService,
    private readonly config: AppConfig,
  ) {}

  async refund(request: RefundRequest): Promise<RefundView> {
    if (!Number.isSafeInteger(request.amountMinor) || request.amountMinor <= 0)
      throw CommonError.validation('amount', 'amount must be a positive number with at most 2 decimals');
    const row = await this.payments.runInTransaction(async (tx) => {
      const captured = await this.payments.lockCaptured(request.rideId, tx);
      const earlier = await this.refunds.find(request.refundId, tx);
      if (earlier) return earlier;
      const source = captured.length > 0 ? 'card' : 'wallet';
      const paid = source === 'card' ? captured.reduce((sum, p) => sum + p.capturedMinor, 0) : await this.wallets.paidFromWalletForRide(request.rideId, tx);
      if (paid === 0) throw new PaymentError('NOTHING_TO_REFUND');
      const refunded = await this.refunds.totalForRide(request.rideId, tx);
      if (refunded + request.amountMinor > paid) throw new PaymentError('REFUND_EXCEEDS_PAID');
      const refund = await this.refunds.insert(
        { id: request.refundId, rideId: request.rideId, amountMinor: request.amountMinor, currency: this.config.currency, source, reason: request.reason },
        tx,
      );
      let left = request.amountMinor;
      for (const payment of captured) {
        const part = Math.min(left, payment.capturedMinor - payment.refundedMinor);
        if (part <= 0) continue;
        const gateway = this.stripe.forCards();
        const stripeRefundId = await gateway.refund(payment.stripePaymentIntentId!, part, request.rideId, StripeKeys.refund(request.refundId, payment.purpose));
        await this.refunds.insertCardRefund(stripeRefundId, request.refundId, payment.id, part, tx);
        await this.payments.addRefunded(payment.id, part, tx);
        left -= part;
      }
      await this.wallets.recordRefund(tx, {
        refundId: request.refundId,
        rideId: request.rideId,
        amountMinor: request.amountMinor,
        toUserId: source === 'wallet' ? request.passengerId : null,
        reason: request.reason,
      });
      await request.within?.(tx, { paidMinor: paid, refundedMinor: refunded + request.amountMinor });
      return refund;
    });
    return refundToJson(row);
  }

  /**
   * A charge.refunded webhook, inside its transaction: the refunds Stripe made that are not ours (an
   * operator's refund in Stripe's dashboard) are recorded once each, by Stripe's refund id, with
   * their ledger entries (platform to the outside, as ours). Answers the ride's totals after them,
   * or undefined when the PaymentIntent is none of the ride's.
   */
  async recordProviderRefunds(
    rideId: string,
    paymentIntentId: string,
    refunds: Array<{ id: string; amountMinor: number }>,
    tx: EntityManager,
  ): Promise<RefundTotals | undefined> {
    const captured = await this.payments.lockCaptured(rideId, tx);
    const payment = captured.find((p) => p.stripePaymentIntentId === paymentIntentId);
    if (!payment) return undefined;
    for (const stripeRefund of refunds) {
      if (stripeRefund.amountMinor <= 0 || (await this.refunds.hasCardRefund(stripeRefund.id, tx))) continue;
      const refundId = randomUUID();
      await this.refunds.insert(
        { id: refundId, rideId, amountMinor: stripeRefund.amountMinor, currency: payment.currency, source: 'provider', reason: 'Refunded in Stripe' },
        tx,
      );
      await this.refunds.insertCardRefund(stripeRefund.id, refundId, payment.id, stripeRefund.amountMinor, tx);
      await this.payments.addRefunded(payment.id, stripeRefund.amountMinor, tx);
      await this.wallets.recordRefund(tx, { refundId, rideId, amountMinor: stripeRefund.amountMinor, toUserId: null, reason: 'Refunded in Stripe' });
    }
    const paidMinor = captured.reduce((sum, p) => sum + p.capturedMinor, 0);
    return { paidMinor, refundedMinor: await this.refunds.totalForRide(rideId, tx) };
  }

  totalRefunded(rideId: string): Promise<number> {
    return this.refunds.totalForRide(rideId);
  }
}

export function refundToJson(row: PaymentRefundRow): RefundView {
  return {
    id: row.id,
    ride_id: row.rideId,
    amount: toMajor(row.amountMinor),
    currency: row.currency.trim(),
    created_at: new Date(row.createdAt).toISOString(),
  };
}
