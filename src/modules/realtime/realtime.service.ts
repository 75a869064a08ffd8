import { performance } from 'node:perf_hooks';
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Histogram } from 'prom-client';
import type { DomainEventMap, EventMeta } from '../../common/events/domain-events';
import { OnDomainEvent } from '../../common/events/on-domain-event';
import { Metrics } from '../../common/metrics/metrics';
import { AppConfig } from '../../config/app-config';
import { rideViewFor } from '../rides/ride-audience';
import type { RideResponseDto as RideView } from '../rides/dto/ride-response.dto';
import { isFinalStatus } from '../rides/ride-status';
import { ConnectionRegistry } from './connection-registry';
import { isDriversNear, isOperators, LIVE_ROUTES, LiveMessage, ROUTED_EVENTS, RoutedEvent, RoutedEventName } from './live-routes';
import { LocationThrottle } from './location-throttle';
import { NearbyDriversPort } from './ports/nearby-drivers.port';
import { PushChannel } from './push/push-channel';
import { rideEventFrame } from './realtime.events';
import { WsCloseCode } from './realtime.errors';

const THROTTLE_SWEEP_MS = 60_000;

/**
 * Every receiver gets the ride a message carries as they may see it (the read model's audiences):
 * all of it for its passenger, without the passenger's fields for anyone else. A message to both
 * is split; one whose ride has nothing restricted in it goes on as it is.
 */
function byAudience(message: LiveMessage): LiveMessage[] {
  const ride = message.data.ride as RideView | undefined;
  if (ride === undefined || ride === null) return [message];
  const forOthers = rideViewFor(ride, null);
  if (forOthers === ride) return [message];
  const others = { ...message, data: { ...message.data, ride: forOthers } };
  if (!Array.isArray(message.to)) return [others];
  const passengerId = ride.passenger?.id ?? null;
  const toPassenger = message.to.filter((id) => id !== null && id === passengerId);
  const toOthers = message.to.filter((id) => id !== passengerId);
  return [...(toPassenger.length > 0 ? [{ ...message, to: toPassenger }] : []), ...(toOthers.length > 0 ? [{ ...others, to: toOthers }] : [])];
}

/**
 * Turns domain events into live messages (CONTRACT §5) through the one routing table
 * (live-routes.ts), delivered on two channels: the sockets this instance holds, and push to
 * receivers no instance can reach (CONTRACT §10). With Redis every instance receives every event
 * and writes to its own sockets; only the instance that published it pushes, so each receiver gets
 * one push per event. Routing needs nothing but the ids the event carries, except ride_requested:
 * its receivers (drivers near the pickup) come from the matcher's memory on this instance (no
 * query), looked up only when a driver is connected here or when it pushes, and once.
 */
@Injectable()
export class RealtimeService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RealtimeService.name);
  private readonly throttle: LocationThrottle;
  /** The matcher's answer per message, shared by both channels. */
  private readonly lookups = new WeakMap<LiveMessage, readonly number[]>();
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly registry: ConnectionRegistry,
    private readonly nearbyDrivers: NearbyDriversPort,
    private readonly push: PushChannel,
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
  ) {
    this.throttle = new LocationThrottle(config.wsLocationThrottleMs);
  }

  onModuleInit(): void {
    this.sweepTimer = setInterval(() => this.throttle.sweep(THROTTLE_SWEEP_MS), THROTTLE_SWEEP_MS);
    this.sweepTimer.unref();
  }

  onModuleDestroy(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.throttle.clear();
  }

  /** Every event the routing table names: its messages to this instance's sockets, and from the publishing instance to push. */
  @OnDomainEvent(...ROUTED_EVENTS)
  private route(event: RoutedEvent, meta: EventMeta): void {
    const route = LIVE_ROUTES[meta.name as RoutedEventName] as (e: RoutedEvent) => LiveMessage[];
    const messages = route(event).flatMap(byAudience);
    for (const message of messages) this.toSockets(message);
    if (meta.local) this.push.offer(messages, (message) => Promise.resolve(this.receivers(message)));
  }

  /** A final ride has no more driver positions to throttle. */
  @OnDomainEvent('ride.status_changed', 'ride.cancelled', 'ride.expired')
  private rideEnded(e: { ride_id: string; ride: { status: DomainEventMap['ride.status_changed']['status'] } }): void {
    if (isFinalStatus(e.ride.status)) this.throttle.forget(e.ride_id);
  }

  private toSockets(message: LiveMessage): void {
    if (isOperators(message.to)) {
      this.registry.sendToUsers(this.registry.operatorIds(), rideEventFrame(message.type, message.rideId, message.data), message.type);
      return;
    }
    if (!isDriversNear(message.to)) {
      this.registry.sendToUsers(message.to, rideEventFrame(message.type, message.rideId, message.data), message.type);
      return;
    }
    if (!this.registry.hasDrivers) return;
    const started = performance.now();
    const ids = this.receivers(message);
    if (ids.length === 0) return;
    const frame = rideEventFrame(message.type, message.rideId, message.data);
    const since = (histogram: Histogram) => () => histogram.observe((performance.now() - started) / 1000);
    this.registry.sendToUsers(ids, frame, message.type, since(this.metrics.matcherFirstSend), since(this.metrics.fanOutLastWrite));
  }

  /** Ids as routed, or the matcher's answer from memory, computed at most once per message on this instance. */
  private receivers(message: LiveMessage): readonly number[] {
    const to = message.to;
    // The operators connected here (push looks up every operator account: PushChannel).
    if (isOperators(to)) return this.registry.operatorIds();
    if (!isDriversNear(to)) return to.filter((id): id is number => id !== null);
    let ids = this.lookups.get(message);
    if (!ids) {
      ids = this.nearbyDrivers.findOnlineDriverIdsNear(to.categoryId, to.point, this.config.matchingRadiusKm);
      this.lookups.set(message, ids);
    }
    return ids;
  }

  /** The hot path: one map lookup when the passenger is not connected here, no database access ever. */
  @OnDomainEvent('driver.location_updated')
  private driverLocationUpdated(e: DomainEventMap['driver.location_updated']): void {
    if (this.registry.connectionsOf(e.passenger_id).size === 0) return;
    this.throttle.offer(e.ride_id, () => {
      const data = { driver_id: e.driver_id, location: e.location };
      this.registry.sendToUsers([e.passenger_id], rideEventFrame('driver_location', e.ride_id, data), 'driver_location');
    });
  }

  @OnDomainEvent('user.access_revoked')
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
  @OnDomainEvent('user.sessions_revoked')
  private sessionsRevoked(e: DomainEventMap['user.sessions_revoked']): void {
    for (const connection of [...this.registry.connectionsOf(e.user_id)]) {
      this.registry.remove(connection);
      connection.close(WsCloseCode.UNAUTHORIZED, `Session ended (${e.reason})`);
    }
  }
}
