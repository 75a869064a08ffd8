import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../../config/app-config';
import type { RideView } from '../../read-models/ride-view';
import type { PendingEvent, RideSweepHandler } from '../ride-command';
import type { LockedRide, RideColumns } from '../ride-writes.repository';

/**
 * `dispatch`, per ride of the sweep's batch: the scheduled ride becomes a request like a new booking.
 * Its time to live starts now (CONTRACT §11: expiry counts from the moment it is requested), and
 * `ride.dispatched` carries what `ride.requested` carries, so it is matched the same way.
 */
@Injectable()
export class DispatchRideHandler implements RideSweepHandler<'dispatch'> {
  constructor(private readonly config: AppConfig) {}

  columns(): RideColumns {
    return { expires_in_minutes: this.config.rideRequestTtlMinutes };
  }

  event(ride: LockedRide, view: RideView): PendingEvent<'ride.dispatched'> {
    const { latitude, longitude } = view.pickup;
    // A scheduled ride always has its passenger: deleting the account deletes the rides no driver took.
    const payload = {
      ride_id: ride.id,
      passenger_id: ride.passenger_id!,
      vehicle_category_id: ride.vehicle_category_id,
      pickup: { latitude, longitude },
      ride: view,
    };
    return { name: 'ride.dispatched', payload };
  }
}
