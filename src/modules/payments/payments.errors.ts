import { DomainError } from '../../common/errors/domain.error';

export type PaymentErrorCode =
  | 'CARD_PAYMENTS_UNAVAILABLE'
  | 'PAYOUTS_UNAVAILABLE'
  | 'PAYMENT_PROVIDER_UNAVAILABLE'
  | 'CARD_DECLINED'
  | 'CARD_REQUIRED'
  | 'CARD_NOT_FOUND'
  | 'CARD_IN_USE'
  | 'PAYMENT_ALREADY_HELD'
  | 'TIP_ALREADY_CHARGED'
  | 'NO_HELD_PAYMENT'
  | 'REFUND_EXCEEDS_PAID'
  | 'NOTHING_TO_REFUND'
  | 'PAYOUT_ACCOUNT_NOT_READY'
  | 'PAYOUT_EXCEEDS_BALANCE'
  | 'PAYOUT_BELOW_MINIMUM'
  | 'PAYOUT_REFUSED'
  | 'PAYOUT_KEY_REUSED'
  | 'INVALID_WEBHOOK';

export const PAYMENT_MESSAGES: Record<PaymentErrorCode, string> = {
  CARD_PAYMENTS_UNAVAILABLE: 'Card payments are not available',
  PAYOUTS_UNAVAILABLE: 'Payouts are not available',
  PAYMENT_PROVIDER_UNAVAILABLE: 'Payment provider unavailable. Please try again',
  CARD_DECLINED: 'Your card was declined',
  CARD_REQUIRED: 'Add a card to pay by card',
  CARD_NOT_FOUND: 'Card not found',
  CARD_IN_USE: 'This card holds money for a ride in progress',
  PAYMENT_ALREADY_HELD: 'A payment is already held for this ride',
  TIP_ALREADY_CHARGED: 'A tip was already charged for this ride',
  NO_HELD_PAYMENT: 'No payment is held for this ride',
  REFUND_EXCEEDS_PAID: 'Refunds cannot exceed what the passenger paid for the ride',
  NOTHING_TO_REFUND: 'Nothing was paid for this ride',
  PAYOUT_ACCOUNT_NOT_READY: 'Payout account is not ready; finish onboarding first',
  PAYOUT_EXCEEDS_BALANCE: 'Payout exceeds the wallet balance',
  PAYOUT_BELOW_MINIMUM: 'Payout is below the minimum',
  PAYOUT_REFUSED: 'Payout refused by the payment provider',
  PAYOUT_KEY_REUSED: 'Idempotency-Key was already used for another payout request',
  INVALID_WEBHOOK: 'Invalid webhook signature',
};

export class PaymentError extends DomainError<PaymentErrorCode> {
  constructor(code: PaymentErrorCode, message: string = PAYMENT_MESSAGES[code], retryAfterSeconds?: number) {
    super(code, message, undefined, retryAfterSeconds);
  }
}
