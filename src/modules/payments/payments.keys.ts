/**
 * Every Stripe POST's Idempotency-Key, named after the business action (CONTRACT §12). A ride's
 * second PaymentIntent of a purpose (another try after a decline) adds the attempt as a suffix, so a
 * key is never reused for other parameters.
 */
export const StripeKeys = {
  customer: (userId: number): string => `customer:${userId}`,
  cardSetup: (userId: number, setupId: string): string => `customer:${userId}:setup:${setupId}`,
  cardDetach: (cardId: string): string => `card:${cardId}:detach`,
  ride: (rideId: string, action: 'hold' | 'capture' | 'release' | 'fee' | 'tip', attempt = 1): string =>
    attempt > 1 ? `ride:${rideId}:${action}:${attempt}` : `ride:${rideId}:${action}`,
  /** A refund's part against the fare's payment is `refund:{id}`, against the tip's `refund:{id}:tip`. */
  refund: (refundId: string, purpose: 'fare' | 'tip'): string => (purpose === 'fare' ? `refund:${refundId}` : `refund:${refundId}:tip`),
  account: (driverId: number): string => `account:${driverId}`,
  accountLink: (driverId: number, linkId: string): string => `account:${driverId}:link:${linkId}`,
  payout: (payoutId: string): string => `payout:${payoutId}`,
};
