import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../../config/app-config';
import { PaymentError } from '../../../payments/payments.errors';
import { PaymentsService } from '../../../payments/payments.service';
import { WalletsService } from '../../../wallets/wallets.service';
import type { LockedRide, RideColumns } from '../ride-writes.repository';
import type { RideTx } from '../ride-command';

/**
 * The money side of a ride that ends without a trip (CONTRACT §12): a cancellation fee paid by the
 * passenger to the driver, with no commission, from the card's hold (the rest released) or the
 * wallet (as far as the balance goes), never from cash; otherwise a card's hold is released.
 *
 * It runs under the ride's lock, before the status is written, so the fee and the cancel commit or
 * fail together: a Stripe outage is a 503 with the ride still as it was. The Stripe call is bounded
 * (10 s in all) and lands on the one hold already placed, which nobody else is waiting to take.
 */
@Injectable()
export class CancellationFee {
  constructor(
    private readonly payments: PaymentsService,
    private readonly wallets: WalletsService,
    private readonly config: AppConfig,
  ) {}

  /** Whether the passenger's own cancel now costs the fee: accepted more than CANCELLATION_FREE_SECONDS ago. */
  isLate(ride: LockedRide): boolean {
    return ride.accepted_seconds !== null && ride.accepted_seconds > this.config.cancellationFreeSeconds;
  }

  /** The ride's money settled for a cancel (the fee when `charge`); answers the columns the change writes. */
  async settle(ride: LockedRide, charge: boolean, tx: RideTx): Promise<RideColumns> {
    const feeMinor = Math.min(this.config.cancellationFeeMinor, ride.fare_minor ?? 0);
    const driverId = ride.driver_id;
    const due = charge && feeMinor > 0 && driverId !== null && ride.passenger_id !== null;
    if (ride.payment_method === 'card') {
      if (due) return this.feeFromHold(ride.id, driverId, feeMinor);
      return (await this.payments.releaseHold(ride.id)) ? { payment_status: 'released' } : {};
    }
    if (ride.payment_method === 'wallet' && due) {
      const paid = await this.wallets.payCancellationFee(tx, { rideId: ride.id, passengerId: ride.passenger_id!, driverId, feeMinor });
      return paid > 0 ? { cancellation_fee_minor: paid } : {};
    }
    return {};
  }

  private async feeFromHold(rideId: string, driverId: number, feeMinor: number): Promise<RideColumns> {
    try {
      const outcome = await this.payments.chargeFeeFromHold({ rideId, driverId, feeMinor });
      if (outcome.status === 'failed') return { payment_status: 'failed' };
      return { payment_status: 'captured', cancellation_fee_minor: outcome.capturedMinor };
    } catch (err) {
      // No live hold (it was never placed, or Stripe already cancelled it): nothing to take the fee from.
      if (err instanceof PaymentError && err.code === 'NO_HELD_PAYMENT') return {};
      throw err;
    }
  }
}
