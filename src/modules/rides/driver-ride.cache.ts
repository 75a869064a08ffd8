import { Injectable } from '@nestjs/common';
import { RidesRepository } from './repositories/rides.repository';

export interface DriverRideRef {
  rideId: string;
  passengerId: number | null;
}

const TTL_MS = 2000;
const MAX_ENTRIES = 200_000;

/**
 * Which ride a driver is assigned to, for the location heartbeat: every ping must know whom to
 * tell, and asking the database each time would make the heartbeat a database read. Entries live
 * at most TTL_MS (a change made on another instance shows within that) and this instance updates
 * them at once when it accepts, finishes or cancels a ride.
 */
@Injectable()
export class DriverRideCache {
  private readonly entries = new Map<number, { ref: DriverRideRef | null; expiresAt: number }>();
  private readonly loading = new Map<number, Promise<DriverRideRef | null>>();

  constructor(private readonly rides: RidesRepository) {}

  async get(driverId: number): Promise<DriverRideRef | null> {
    const entry = this.entries.get(driverId);
    if (entry && entry.expiresAt > Date.now()) return entry.ref;
    let pending = this.loading.get(driverId);
    if (!pending) {
      pending = this.rides
        .findAssignedRefOfDriver(driverId)
        .then((row) => {
          const ref = row ? { rideId: row.id, passengerId: row.passenger_id } : null;
          this.set(driverId, ref);
          return ref;
        })
        .finally(() => this.loading.delete(driverId));
      this.loading.set(driverId, pending);
    }
    return pending;
  }

  set(driverId: number, ref: DriverRideRef | null): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(driverId, { ref, expiresAt: Date.now() + TTL_MS });
  }
}
