import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { DomainEventMap, EventMeta, GeoPoint } from '../../common/events/domain-events';
import { EventBus } from '../../common/events/event-bus';
import { OnDomainEvent } from '../../common/events/on-domain-event';
import { haversineKm } from '../../common/geo';
import { AppConfig } from '../../config/app-config';
import { RidesService } from '../rides/rides.service';

/** A stop: the driver stays within this of where it began. */
const STOP_RADIUS_KM = 0.1;
/** Only stops farther than this from both pickup and dropoff are asked about. */
const AWAY_FROM_ENDS_KM = 0.3;

interface Stop {
  readonly at: GeoPoint;
  /** Whether both parties were asked about it (once per stop). */
  asked: boolean;
  timer: NodeJS.Timeout | null;
}

/**
 * The ride check (CONTRACT §14), from the driver positions the service already receives: the
 * heartbeats' driver.location_updated events, in memory, no query of its own. While a ride is
 * started, a stop begins where the driver is and lasts while they stay within 100 m of it; a stop
 * more than 300 m from pickup and dropoff that lasts RIDE_CHECK_STOP_MINUTES asks both parties once
 * (`ride.check_requested` → `ride_check`). Every instance follows every ride's stops (the events
 * cross instances), and only the instance whose heartbeat began a stop times it, so the question
 * is asked once.
 */
@Injectable()
export class RideCheckMonitor implements OnModuleDestroy {
  private readonly stops = new Map<string, Stop>();

  constructor(
    private readonly rides: RidesService,
    private readonly events: EventBus,
    private readonly config: AppConfig,
  ) {}

  onModuleDestroy(): void {
    for (const rideId of [...this.stops.keys()]) this.forget(rideId);
  }

  @OnDomainEvent('driver.location_updated')
  private async located(e: DomainEventMap['driver.location_updated'], meta: EventMeta): Promise<void> {
    const point = { latitude: e.location.latitude, longitude: e.location.longitude };
    const stop = this.stops.get(e.ride_id);
    if (stop && haversineKm(stop.at, point) <= STOP_RADIUS_KM) return;
    // The ride from the ride cache (no query while it is cached; ride events keep it right).
    const ride = await this.rides.findRideView(e.ride_id);
    if (ride?.status !== 'started') return this.forget(e.ride_id);
    this.forget(e.ride_id);
    const next: Stop = { at: point, asked: false, timer: null };
    this.stops.set(e.ride_id, next);
    const awayFromEnds = haversineKm(ride.pickup, point) > AWAY_FROM_ENDS_KM && haversineKm(ride.dropoff, point) > AWAY_FROM_ENDS_KM;
    if (!awayFromEnds || !meta.local) return;
    next.timer = setTimeout(() => this.ask(e.ride_id, next, ride.passenger?.id ?? null, ride.driver?.id ?? null), this.config.rideCheckStopMinutes * 60_000);
    next.timer.unref();
  }

  private ask(rideId: string, stop: Stop, passengerId: number | null, driverId: number | null): void {
    stop.timer = null;
    if (this.stops.get(rideId) !== stop || stop.asked) return;
    stop.asked = true;
    this.events.publish('ride.check_requested', { ride_id: rideId, passenger_id: passengerId, driver_id: driverId, reason: 'long_stop' });
  }

  /** A party said all is well: this stop is not asked about (again). */
  answeredOk(rideId: string): void {
    const stop = this.stops.get(rideId);
    if (stop) stop.asked = true;
  }

  @OnDomainEvent('ride.status_changed', 'ride.cancelled')
  private rideMoved(e: { ride_id: string; ride: { status: string } }): void {
    if (e.ride.status !== 'started') this.forget(e.ride_id);
  }

  private forget(rideId: string): void {
    const stop = this.stops.get(rideId);
    if (stop?.timer) clearTimeout(stop.timer);
    this.stops.delete(rideId);
  }
}
