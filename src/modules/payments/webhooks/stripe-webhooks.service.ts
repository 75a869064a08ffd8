import { Injectable, Logger, Optional } from '@nestjs/common';
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import { EventBus } from '../../../common/events/event-bus';
import { PaymentCustomersRepository } from '../cards/payment-customers.repository';
import { PaymentError } from '../payments.errors';
import { PayoutsRepository } from '../payouts/payouts.repository';
import { RidePaymentEventsPort } from '../ride-payment-events.port';
import { RefundsService } from '../ride-payments/refunds.service';
import { StripeAccess } from '../stripe/stripe-access';
import { StripeWebhookEventsRepository } from './stripe-webhook-events.repository';

type AfterCommit = () => void | Promise<void>;

/**
 * Stripe's webhook deliveries (CONTRACT §12): the raw body verified against `Stripe-Signature` by
 * the library, then each event id applied once. The id is claimed in the transaction of the event's
 * effect: a redelivery finds it (200, no effect), and one racing the first delivery waits on the
 * key until that transaction ends, then does nothing. Unknown types are recorded and answered 200.
 */
@Injectable()
export class StripeWebhooksService {
  private readonly logger = new Logger('StripeWebhooks');

  constructor(
    private readonly stripe: StripeAccess,
    private readonly events: StripeWebhookEventsRepository,
    private readonly customers: PaymentCustomersRepository,
    private readonly payouts: PayoutsRepository,
    private readonly bus: EventBus,
    private readonly refunds: RefundsService,
    // Bound by the composition root once rides handle it (issue 24, phase 2); until then those events are only recorded.
    @Optional() private readonly rides?: RidePaymentEventsPort,
  ) {}

  /** Answers whether the event took effect now (false: seen before). */
  async receive(rawBody: Buffer | undefined, signature: string | undefined): Promise<boolean> {
    const event = rawBody ? this.stripe.gateway?.verifyWebhook(rawBody, signature) : undefined;
    if (!event) throw new PaymentError('INVALID_WEBHOOK');
    const after: AfterCommit[] = [];
    const applied = await this.events.runInTransaction(async (tx) => {
      if (!(await this.events.claim(event.id, event.type, tx))) return false;
      await this.apply(event, tx, after);
      return true;
    });
    // Awaited: the ride's caches here have forgotten it before Stripe (or a test) hears 200.
    for (const publish of after) await publish();
    if (!applied) this.logger.debug({ msg: 'Stripe event seen before', event_id: event.id, type: event.type });
    return applied;
  }

  private async apply(event: Stripe.Event, tx: EntityManager, after: AfterCommit[]): Promise<void> {
    switch (event.type) {
      case 'setup_intent.succeeded': {
        const intent = event.data.object;
        const customer = idOf(intent.customer);
        const card = idOf(intent.payment_method);
        if (customer && card) await this.customers.setDefaultIfNone(customer, card, tx);
        return;
      }
      case 'account.updated': {
        const account = event.data.object;
        const enabled = account.payouts_enabled === true;
        const driverId = await this.payouts.setPayoutsEnabled(account.id, enabled, tx);
        if (driverId !== undefined) after.push(() => this.bus.publish('payout_account.updated', { driver_id: driverId, payouts_enabled: enabled }));
        return;
      }
      case 'payment_intent.canceled': {
        const intent = event.data.object;
        const rideId = intent.metadata?.ride_id;
        const announce = rideId && this.rides ? await this.rides.holdCanceled({ rideId, paymentIntentId: intent.id }, tx) : undefined;
        if (announce) after.push(announce);
        return;
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const rideId = charge.metadata?.ride_id;
        const paymentIntentId = idOf(charge.payment_intent);
        if (!rideId || !paymentIntentId || !this.rides) return;
        const refunds = (charge.refunds?.data ?? []).map((r) => ({ id: r.id, amountMinor: r.amount }));
        const ride = await this.refunds.recordProviderRefunds(rideId, paymentIntentId, refunds, tx);
        const announce = await this.rides.chargeRefunded({ rideId, paymentIntentId, amountRefundedMinor: charge.amount_refunded, refunds, ride }, tx);
        if (announce) after.push(announce);
        return;
      }
      default:
        return;
    }
  }
}

function idOf(value: string | { id: string } | null | undefined): string | undefined {
  if (typeof value === 'string') return value;
  return value?.id;
}
