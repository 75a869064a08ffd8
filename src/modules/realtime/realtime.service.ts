import { isFinalStatus } from '../rides/ride-status';
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DomainEventHandler, DomainEventMap, DomainEventName } from '../../common/events/domain-events';
import { EventBus } from '../../common/events/event-bus';
import { AppConfig } from '../../config/app-config';
import { ConnectionRegistry } from './connection-registry';
import { LocationThrottle } from './location-throttle';
import { NearbyDriversPort } from './ports/nearby-drivers.port';
import type { LiveRide } from './ports/ride-snapshot.port';
import { rideEventFrame } from './realtime.events';
import { WsCloseCode } from './realtime.errors';

const THROTTLE_SWEEP_MS = 60_000;

/**
 * Turns domain events into live messages for the sockets this instance holds (CONTRACT section 5).
 * With Redis every instance receives every event and delivers to its own sockets only, so routing
 * needs nothing but the ids the event carries, except ride_requested: its receivers (drivers near
 * the pickup) are looked up in the shared live-position store and database, and only when a driver
 * is connected here.
 *
 * Drivers who are not the ride's driver (bidders whose bid lost or was withdrawn) get the ride with
 * `driver: null` and their bid's fate in `data.bid_status`: they learn the outcome, not who won.
 */
@Injectable()
export class RealtimeService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RealtimeService.name);
  private readonly unsubscribers: Array<() => void> = [];
  private readonly throttle: LocationThrottle;
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly bus: EventBus,
    private readonly registry: ConnectionRegistry,
    private readonly nearbyDrivers: NearbyDriversPort,
    private readonly config: AppConfig,
  ) {
    this.throttle = new LocationThrottle(config.wsLocationThrottleMs);
  }

  onModuleInit(): void {
    this.on('ride.requested', (e) => this.rideRequested(e));
    this.on('bid.submitted', (e) => this.bidSubmitted(e));
    this.on('ride.accepted', (e) => this.rideAccepted(e));
    this.on('ride.status_changed', (e) => this.rideStatusChanged(e));
    this.on('ride.cancelled', (e) => this.rideCancelled(e));
    this.on('ride.expired', (e) => this.rideExpired(e));
    this.on('driver.location_updated', (e) => this.driverLocationUpdated(e));
    this.on('user.access_revoked', (e) => this.accessRevoked(e));
    this.on('user.sessions_revoked', (e) => this.sessionsRevoked(e));
    this.sweepTimer = setInterval(() => this.throttle.sweep(THROTTLE_SWEEP_MS), THROTTLE_SWEEP_MS);
    this.sweepTimer.unref();
  }

  onModuleDestroy(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.throttle.clear();
  }

  private async rideRequested(e: DomainEventMap['ride.requested']): Promise<void> {
    if (!this.registry.hasDrivers) return;
    const driverIds = await this.nearbyDrivers.findOnlineDriverIdsNear(e.vehicle_category_id, e.pickup, this.config.matchingRadiusKm);
    if (driverIds.length === 0) return;
    this.registry.sendToUsers(driverIds, rideEventFrame('ride_requested', e.ride_id, { ride: e.ride }));
  }

  private bidSubmitted(e: DomainEventMap['bid.submitted']): void {
    this.registry.sendToUsers([e.passenger_id], rideEventFrame('bid_submitted', e.ride_id, { bid: e.bid }));
  }

  private rideAccepted(e: DomainEventMap['ride.accepted']): void {
    this.registry.sendToUsers([e.passenger_id, e.driver_id], rideEventFrame('ride_accepted', e.ride_id, { ride: e.ride }));
    const losers = e.rejected_driver_ids.filter((id) => id !== e.driver_id);
    if (losers.length === 0) return;
    this.registry.sendToUsers(losers, rideEventFrame('ride_accepted', e.ride_id, { ride: withoutDriver(e.ride), bid_status: 'rejected' }));
  }

  private rideStatusChanged(e: DomainEventMap['ride.status_changed']): void {
    if (isFinalStatus(e.status)) this.throttle.forget(e.ride_id);
    this.registry.sendToUsers([e.passenger_id, e.driver_id], rideEventFrame('ride_status_changed', e.ride_id, { ride: e.ride }));
  }

  private rideCancelled(e: DomainEventMap['ride.cancelled']): void {
    this.throttle.forget(e.ride_id);
    const data = { ride: e.ride, cancelled_by: e.cancelled_by };
    this.registry.sendToUsers([e.passenger_id, e.driver_id], rideEventFrame('ride_cancelled', e.ride_id, data));
    const bidders = e.bidder_driver_ids.filter((id) => id !== e.driver_id);
    if (bidders.length === 0) return;
    const outsiders = { ride: withoutDriver(e.ride), cancelled_by: e.cancelled_by, bid_status: 'withdrawn' };
    this.registry.sendToUsers(bidders, rideEventFrame('ride_cancelled', e.ride_id, outsiders));
  }

  /**
   * Expiry is a status change (requested → expired) the passenger must see. Drivers with a live bid
   * get it too, with their bid withdrawn, so their app can drop the request; nobody else does.
   */
  private rideExpired(e: DomainEventMap['ride.expired']): void {
    this.throttle.forget(e.ride_id);
    this.registry.sendToUsers([e.passenger_id], rideEventFrame('ride_status_changed', e.ride_id, { ride: e.ride }));
    if (e.bidder_driver_ids.length === 0) return;
    const outsiders = { ride: withoutDriver(e.ride), bid_status: 'withdrawn' };
    this.registry.sendToUsers(e.bidder_driver_ids, rideEventFrame('ride_status_changed', e.ride_id, outsiders));
  }

  /** The hot path: one map lookup when the passenger is not connected here, no database access ever. */
  private driverLocationUpdated(e: DomainEventMap['driver.location_updated']): void {
    if (this.registry.connectionsOf(e.passenger_id).size === 0) return;
    this.throttle.offer(e.ride_id, () => {
      const data = { driver_id: e.driver_id, location: e.location };
      this.registry.sendToUsers([e.passenger_id], rideEventFrame('driver_location', e.ride_id, data));
    });
  }

  private accessRevoked(e: DomainEventMap['user.access_revoked']): void {
    const connections = [...this.registry.connectionsOf(e.user_id)];
    if (connections.length === 0) return;
    this.logger.log({ msg: 'Closing live connections of a revoked user', user_id: e.user_id, reason: e.reason, count: connections.length });
    for (const connection of connections) {
      this.registry.remove(connection);
      connection.close(WsCloseCode.ACCESS_REVOKED, `Access revoked (${e.reason})`);
    }
  }

  /**
   * Logout or a replayed refresh token ended the user's sessions: the sockets opened with their
   * access tokens close with 4401, as a connection with such a token would be refused. An app still
   * signed in reconnects with its current token.
   */
  private sessionsRevoked(e: DomainEventMap['user.sessions_revoked']): void {
    for (const connection of [...this.registry.connectionsOf(e.user_id)]) {
      this.registry.remove(connection);
      connection.close(WsCloseCode.UNAUTHORIZED, `Session ended (${e.reason})`);
    }
  }

  private on<K extends DomainEventName>(name: K, handler: DomainEventHandler<K>): void {
    this.unsubscribers.push(this.bus.subscribe(name, handler));
  }
}

function withoutDriver(ride: LiveRide): LiveRide {
  return { ...ride, driver: null };
}
