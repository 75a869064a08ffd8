import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { toMinor } from '../../../common/money';
import { AuditService } from '../../audit/audit.service';
import { PaymentsService, RefundView } from '../../payments/payments.service';
import { RidesRepository } from '../read-models/rides.repository';
import { PaymentStatus, rideToJson } from '../read-models/ride-view';
import { EventBus } from '../../../common/events/event-bus';
import { RideError } from '../rides.errors';
import { isUuid } from '../rides.service';
import { RideWritesRepository } from '../transitions/ride-writes.repository';

/**
 * An operator's refund of a ride (CONTRACT §12, §13): card rides through Stripe, wallet rides back
 * to the wallet, cash rides never (409); never above what the passenger paid (409). The ride's
 * `refunded_amount` (and a card ride's `payment_status`) and the audit entry are written in the
 * refund's own transaction, so none of the three exists without the others.
 */
@Injectable()
export class RideRefundsService {
  constructor(
    private readonly payments: PaymentsService,
    private readonly reads: RidesRepository,
    private readonly writes: RideWritesRepository,
    private readonly audit: AuditService,
    private readonly events: EventBus,
  ) {}

  async refund(operatorId: number, rideId: string, amount: number, reason: string): Promise<RefundView> {
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    const ride = await this.reads.findView(rideId);
    if (!ride) throw new RideError('RIDE_NOT_FOUND');
    if (ride.payment_method === 'cash') throw new RideError('CASH_RIDE_NOT_REFUNDABLE');
    const amountMinor = toMinor(amount)!;
    const refundId = randomUUID();
    const refund = await this.payments.refund({
      refundId,
      rideId,
      passengerId: ride.passenger_id!,
      amountMinor,
      reason: reason.trim(),
      within: async (tx, totals) => {
        const status: PaymentStatus | null =
          ride.payment_method !== 'card' ? null : totals.refundedMinor >= totals.paidMinor ? 'refunded' : 'partially_refunded';
        await this.writes.setRefunded(rideId, totals.refundedMinor, status, tx);
        await this.audit.record(
          {
            actorId: operatorId,
            reason,
            action: 'rides.refund',
            targetType: 'ride',
            targetId: rideId,
            details: { refund_id: refundId, amount_minor: amountMinor },
          },
          tx,
        );
      },
    });
    const view = await this.reads.findView(rideId);
    if (view)
      this.events.publish('ride.payment_changed', {
        ride_id: rideId,
        passenger_id: view.passenger_id,
        driver_id: view.driver_id,
        failed: false,
        ride: rideToJson(view),
      });
    return refund;
  }
}
