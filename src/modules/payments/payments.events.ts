import type { PayoutView } from './payouts/payouts.service';

/** The payments events, added to the domain events by declaration merging (the bus in common/ knows no module). */
declare module '../../common/events/domain-events' {
  interface DomainEventMap {
    /** A driver was paid out (after the commit of the transfer and the wallet debit). */
    'payout.paid': { driver_id: number; payout: PayoutView };
    /** Stripe said whether the driver's connected account may receive payouts (`account.updated`). */
    'payout_account.updated': { driver_id: number; payouts_enabled: boolean };
  }
}

export const PAYMENTS_EVENTS = ['payout.paid', 'payout_account.updated'] as const;
