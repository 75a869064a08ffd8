import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EventBus } from '../../../common/events/event-bus';
import { toMajor } from '../../../common/money';
import { AppConfig } from '../../../config/app-config';
import { WalletsService } from '../../wallets/wallets.service';
import { PaymentError } from '../payments.errors';
import { StripeKeys } from '../payments.keys';
import { StripeAccess } from '../stripe/stripe-access';
import { StripeRefusal } from '../stripe/stripe-refusal';
import { PayoutRow, PayoutsRepository } from './payouts.repository';

/** A payout as the driver sees it (CONTRACT §12). */
export interface PayoutView {
  id: string;
  amount: number;
  currency: string;
  status: 'paid';
  created_at: string;
}

export interface PayoutPageView {
  items: PayoutView[];
  page: number;
  limit: number;
  total: number;
}

/**
 * Drivers' payouts (CONTRACT §12): a connected Express account with an onboarding link, readiness
 * from `account.updated`, and transfers that debit the wallet in the same ledger transaction.
 *
 * A payout is one transaction that locks the driver's wallet row, checks readiness and balance,
 * makes the transfer (`payout:{id}`, bounded by STRIPE_BUDGET) and records the payout and the debit.
 * So: a transfer Stripe refuses leaves the wallet untouched (rolled back); two payouts of one
 * driver take turns on the lock and the second sees the first's debit; a request retried with its
 * Idempotency-Key finds the payout it made (its id, hence its Stripe key, is derived from the key,
 * so even a retry after a commit that never answered sends Stripe the same key and pays once).
 */
@Injectable()
export class PayoutsService {
  constructor(
    private readonly stripe: StripeAccess,
    private readonly payouts: PayoutsRepository,
    private readonly wallets: WalletsService,
    private readonly events: EventBus,
    private readonly config: AppConfig,
  ) {}

  /** Creates the driver's connected account once (`account:{driver_id}`) and a fresh onboarding link. */
  async onboardingLink(driverId: number): Promise<{ url: string }> {
    const gateway = this.stripe.forPayouts();
    let account = await this.payouts.findAccount(driverId);
    if (!account) {
      const id = await gateway.createExpressAccount(driverId, this.config.payoutCountry, StripeKeys.account(driverId));
      account = await this.payouts.insertAccount(driverId, id);
    }
    const base = this.config.publicBaseUrl || `http://localhost:${this.config.port}`;
    const url = await gateway.createOnboardingLink(
      account.stripeAccountId,
      `${base}/payouts/onboarding/refresh`,
      `${base}/payouts/onboarding/return`,
      StripeKeys.accountLink(driverId, randomUUID()),
    );
    return { url };
  }

  async payoutsEnabled(driverId: number): Promise<boolean> {
    return (await this.payouts.findAccount(driverId))?.payoutsEnabled ?? false;
  }

  /** Answers the payout and whether this call made it (false: a retry with the same Idempotency-Key). */
  async payOut(driverId: number, amountMinor: number, requestKey?: string): Promise<{ payout: PayoutView; created: boolean }> {
    const gateway = this.stripe.forPayouts();
    if (amountMinor < this.config.payoutMinimumMinor) {
      throw new PaymentError('PAYOUT_BELOW_MINIMUM', `Payout must be at least ${(this.config.payoutMinimumMinor / 100).toFixed(2)} ${this.config.currency}`);
    }
    const payoutId = requestKey === undefined ? randomUUID() : payoutIdFor(driverId, requestKey);
    const result = await this.payouts.runInTransaction(async (tx) => {
      const wallet = await this.wallets.lockWallet(driverId, tx);
      if (requestKey !== undefined) {
        const earlier = await this.payouts.findByRequestKey(driverId, requestKey, tx);
        if (earlier && earlier.amountMinor !== amountMinor) throw new PaymentError('PAYOUT_KEY_REUSED');
        if (earlier) return { row: earlier, created: false };
      }
      const account = await this.payouts.findAccount(driverId, tx);
      if (!account?.payoutsEnabled) throw new PaymentError('PAYOUT_ACCOUNT_NOT_READY');
      if (wallet.balanceMinor < amountMinor) throw new PaymentError('PAYOUT_EXCEEDS_BALANCE');
      let transferId: string;
      try {
        transferId = await gateway.transfer(amountMinor, this.config.currency, account.stripeAccountId, payoutId, StripeKeys.payout(payoutId));
      } catch (err) {
        if (err instanceof StripeRefusal) throw new PaymentError('PAYOUT_REFUSED');
        throw err;
      }
      const row = await this.payouts.insert(
        { id: payoutId, driverId, amountMinor, currency: this.config.currency, stripeTransferId: transferId, requestKey: requestKey ?? null },
        tx,
      );
      await this.wallets.recordPayout(tx, { transferId: payoutId, driverId, amountMinor });
      return { row, created: true };
    });
    const payout = payoutToJson(result.row);
    if (result.created) this.events.publish('payout.paid', { driver_id: driverId, payout });
    return { payout, created: result.created };
  }

  async list(driverId: number, page: number, limit: number): Promise<PayoutPageView> {
    const { items, total } = await this.payouts.listForDriver(driverId, page, limit);
    return { items: items.map(payoutToJson), page, limit, total };
  }
}

/** The same driver and Idempotency-Key always name the same payout (a UUID built from their hash). */
function payoutIdFor(driverId: number, requestKey: string): string {
  const hex = createHash('sha256').update(`payout:${driverId}:${requestKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function payoutToJson(row: PayoutRow): PayoutView {
  return { id: row.id, amount: toMajor(row.amountMinor), currency: row.currency.trim(), status: row.status, created_at: new Date(row.createdAt).toISOString() };
}
