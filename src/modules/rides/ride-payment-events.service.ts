import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventBus } from '../../common/events/event-bus';
import { AfterCommit, ChargeRefundedEvent, HoldCanceledEvent, RidePaymentEventsPort } from '../payments/ride-payment-events.port';
import { RidesRepository } from './read-models/rides.repository';
import { rideToJson } from './read-models/ride-view';
import { RideWritesRepository } from './transitions/ride-writes.repository';

/**
 * What Stripe did to a ride's money, told by the payments module's webhooks (RidePaymentEventsPort,
 * bound in src/bootstrap/marketplace-ports.module.ts), applied to the ride in the webhook's own
 * transaction (so once per event id), and announced after its commit as `ride.payment_changed`:
 * caches forget the ride, and a hold Stripe cancelled reaches operators as `payment_failed`.
 */
@Injectable()
export class RidePaymentEventsService implements RidePaymentEventsPort {
  constructor(
    private readonly writes: RideWritesRepository,
    private readonly reads: RidesRepository,
    private readonly events: EventBus,
  ) {}

  /** A held ride's hold was cancelled by Stripe (it lapsed): `payment_status: "failed"`. Our own releases are not held any more. */
  async holdCanceled(event: HoldCanceledEvent, manager: EntityManager): Promise<AfterCommit | void> {
    if (!(await this.writes.markHoldFailed(event.rideId, manager))) return;
    return this.announce(event.rideId, true);
  }

  /** `refunded_amount` follows the ride's refunds (those made in Stripe's dashboard now recorded too). */
  async chargeRefunded(event: ChargeRefundedEvent, manager: EntityManager): Promise<AfterCommit | void> {
    if (!event.ride) return;
    const { paidMinor, refundedMinor } = event.ride;
    await this.writes.setRefunded(event.rideId, refundedMinor, refundedMinor >= paidMinor ? 'refunded' : 'partially_refunded', manager);
    return this.announce(event.rideId, false);
  }

  private announce(rideId: string, failed: boolean): AfterCommit {
    return async () => {
      const row = await this.reads.findView(rideId);
      if (row)
        this.events.publish('ride.payment_changed', {
          ride_id: rideId,
          passenger_id: row.passenger_id,
          driver_id: row.driver_id,
          failed,
          ride: rideToJson(row),
        });
    };
  }
}
