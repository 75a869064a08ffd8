import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import type { JsonObject } from '../../common/events/domain-events';
import { EventBus } from '../../common/events/event-bus';
import { percentOf } from '../../common/money';
import { AppConfig } from '../../config/app-config';
import { WalletsService } from '../wallets/wallets.service';
import { RideBidsRepository } from './repositories/ride-bids.repository';
import { RidesRepository } from './repositories/rides.repository';
import { LockedRide, RideStatus, RideWritesRepository } from './repositories/ride-writes.repository';
import { isUuid } from './rides.service';
import { RideError } from './rides.errors';
import { rideToJson } from './views/ride-view';

/** The one step forward the assigned driver may take from each status. */
const NEXT: Partial<Record<RideStatus, RideStatus>> = {
  accepted: 'driver_arrived',
  driver_arrived: 'started',
  started: 'completed',
};

const CANCELLABLE_BY: Record<'passenger' | 'driver', readonly RideStatus[]> = {
  passenger: ['requested', 'accepted', 'driver_arrived'],
  driver: ['accepted', 'driver_arrived'],
};

/** Status changes by the assigned driver, cancellation, and the payment that completion triggers. */
@Injectable()
export class RideLifecycleService {
  constructor(
    private readonly writes: RideWritesRepository,
    private readonly reads: RidesRepository,
    private readonly rideBids: RideBidsRepository,
    private readonly wallets: WalletsService,
    private readonly events: EventBus,
    private readonly config: AppConfig,
  ) {}

  /** One step forward by the assigned driver; completion pays in the same transaction. */
  async changeStatus(rideId: string, to: RideStatus, user: AuthenticatedUser): Promise<JsonObject> {
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    const ride = await this.writes.runInTransaction(async (manager) => {
      const locked = await this.writes.lockForUpdate(rideId, manager);
      // Only the assigned driver may move a ride; to anyone else it does not exist.
      if (!locked || locked.driver_id !== user.id) throw new RideError('RIDE_NOT_FOUND');
      if (NEXT[locked.status] !== to) {
        throw new RideError('INVALID_STATUS_TRANSITION', `Cannot change a ride from ${locked.status} to ${to}`);
      }
      await this.writes.setStatus(rideId, to, manager);
      await this.writes.recordEvents([{ rideId, from: locked.status, to, actorUserId: user.id, actorRole: 'driver' }], manager);
      if (to === 'completed') await this.pay(locked, manager);
      return rideToJson((await this.reads.findView(rideId, manager))!);
    });
    this.events.publish('ride.status_changed', {
      ride_id: rideId,
      passenger_id: (ride.passenger as { id: number } | null)?.id ?? null,
      driver_id: user.id,
      status: to,
      ride,
    });
    return ride;
  }

  /** By the ride's passenger (requested, accepted, driver_arrived) or its assigned driver (accepted, driver_arrived). */
  async cancel(rideId: string, user: AuthenticatedUser, reason: string | null): Promise<JsonObject> {
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    const { ride, bidders, locked } = await this.writes.runInTransaction(async (manager) => {
      const locked = await this.writes.lockForUpdate(rideId, manager);
      const as = locked?.passenger_id === user.id ? 'passenger' : locked?.driver_id === user.id ? 'driver' : undefined;
      if (!locked || !as) throw new RideError('RIDE_NOT_FOUND');
      if (!CANCELLABLE_BY[as].includes(locked.status)) throw new RideError('RIDE_NOT_CANCELLABLE');
      await this.writes.setStatus(rideId, 'cancelled', manager, { by: as, reason });
      const withdrawn = await this.rideBids.withdrawPendingForRides([rideId], manager);
      await this.writes.recordEvents(
        [{ rideId, from: locked.status, to: 'cancelled', actorUserId: user.id, actorRole: as, reason }],
        manager,
      );
      const row = await this.reads.findView(rideId, manager);
      return { ride: rideToJson(row!), bidders: withdrawn.get(rideId) ?? [], locked };
    });
    this.events.publish('ride.cancelled', {
      ride_id: rideId,
      passenger_id: locked.passenger_id,
      driver_id: locked.driver_id,
      bidder_driver_ids: bidders,
      cancelled_by: ride.cancelled_by as 'passenger' | 'driver',
      ride,
    });
    return ride;
  }

  /** Exactly once per ride: the ride row is locked and ride_payments' primary key refuses a second row. */
  private async pay(ride: LockedRide, manager: EntityManager): Promise<void> {
    const fareMinor = ride.fare_minor ?? 0;
    const commissionMinor = percentOf(fareMinor, this.config.platformCommissionPercent);
    const inserted = await this.writes.insertPayment(
      {
        rideId: ride.id,
        driverId: ride.driver_id!,
        method: ride.payment_method,
        fareMinor,
        commissionMinor,
        currency: ride.currency.trim(),
      },
      manager,
    );
    if (!inserted) throw new RideError('INVALID_STATUS_TRANSITION', 'Ride is already paid');
    if (ride.payment_method === 'wallet' && ride.passenger_id !== null && fareMinor > 0) {
      await this.wallets.payRide(manager, {
        rideId: ride.id,
        passengerId: ride.passenger_id,
        driverId: ride.driver_id!,
        fareMinor,
        commissionMinor,
      });
    }
  }
}
