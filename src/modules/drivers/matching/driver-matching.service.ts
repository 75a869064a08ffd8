import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { DomainEventMap, EventMeta, GeoPoint } from '../../../common/events/domain-events';
import { EventBus } from '../../../common/events/event-bus';
import { OnDomainEvent } from '../../../common/events/on-domain-event';
import type { GeoBox } from '../../../common/geo';
import { AppConfig } from '../../../config/app-config';
import { isFinalStatus } from '../../rides/ride-status';
import { RidesService } from '../../rides/rides.service';
import { DriversRepository } from '../drivers.repository';
import { AvailableDrivers, LiveDriver } from './available-drivers';

/** The heartbeats answered here since the last report to the other instances. */
interface PositionsReport {
  driver_ids: number[];
  latitudes: number[];
  longitudes: number[];
  at_ms: number[];
}

/**
 * The matcher's memory on this instance: who may be told about a new request, answered without a
 * query. Loaded from the database at start-up, then kept by events from every instance (driver
 * availability and category, ride accepted and over, the other instances' heartbeats) and by the
 * heartbeats answered here, which count at once whatever Redis does. A reconciliation every
 * DRIVER_MATCHING_RECONCILE_SECONDS reloads the availability, the assignments and the positions
 * flushed to the table, which bounds what a lost event (Redis down) or a change made behind the
 * service's back can cost, and lets an instance cut off from Redis still see the other instances'
 * drivers through the table.
 */
@Injectable()
export class DriverMatchingService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DriverMatching');
  private readonly drivers = new AvailableDrivers();
  /** Counts the events applied; a reload keeps what an event newer than its query said. */
  private applied = 0;
  private readonly changedAt = new Map<number, number>();
  private report: PositionsReport | undefined;
  private readonly reportToOthers: boolean;
  private reconcileTimer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private reloading: Promise<void> | undefined;

  constructor(
    private readonly repository: DriversRepository,
    private readonly rides: RidesService,
    private readonly events: EventBus,
    private readonly config: AppConfig,
  ) {
    this.reportToOthers = Boolean(config.redisUrl);
  }

  private get maxAgeMs(): number {
    return this.config.driverLocationMaxAgeSeconds * 1000;
  }

  /** Matching must not start from an empty picture: the app is ready once this has loaded. */
  async onApplicationBootstrap(): Promise<void> {
    await this.reload();
    this.reconcileTimer = setInterval(() => void this.reconcile(), this.config.driverMatchingReconcileSeconds * 1000);
    this.reconcileTimer.unref();
    this.pruneTimer = setInterval(() => this.drivers.prune(Date.now() - this.maxAgeMs), this.maxAgeMs);
    this.pruneTimer.unref();
  }

  beforeApplicationShutdown(): void {
    if (this.reconcileTimer) clearInterval(this.reconcileTimer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
  }

  /**
   * Drivers told about a new request (CONTRACT §5): online, approved, of the category (or of
   * none), heard from within DRIVER_LOCATION_MAX_AGE_SECONDS and radiusKm of the point. A driver
   * on a ride is told too, as the contract lists no such exception (and bidding refuses it).
   */
  driversToTell(vehicleCategoryId: number, point: GeoPoint, radiusKm: number): number[] {
    return this.drivers.near({ point, radiusKm, vehicleCategoryId, heardSince: Date.now() - this.maxAgeMs, freeOnly: false });
  }

  /** The operators' live view: drivers heard within DRIVER_LOCATION_MAX_AGE_SECONDS whose position is in the box. */
  liveIn(box: GeoBox, limit: number): LiveDriver[] {
    return this.drivers.inBox(box, Date.now() - this.maxAgeMs, limit);
  }

  /** Supply for surge: the drivers above without a non-final ride. */
  countAvailableNear(point: GeoPoint, radiusKm: number, vehicleCategoryId: number): number {
    return this.drivers.countNear({ point, radiusKm, vehicleCategoryId, heardSince: Date.now() - this.maxAgeMs, freeOnly: true });
  }

  /** A heartbeat answered here: counts at once, and reaches the other instances within a turn of the event loop. */
  heard(driverId: number, latitude: number, longitude: number, at: Date): void {
    const atMs = at.getTime();
    this.drivers.heardAt(driverId, latitude, longitude, atMs);
    if (!this.reportToOthers) return;
    if (!this.report) {
      this.report = { driver_ids: [], latitudes: [], longitudes: [], at_ms: [] };
      setImmediate(() => this.sendReport());
    }
    this.report.driver_ids.push(driverId);
    this.report.latitudes.push(latitude);
    this.report.longitudes.push(longitude);
    this.report.at_ms.push(atMs);
  }

  private sendReport(): void {
    const report = this.report;
    this.report = undefined;
    if (report) this.events.publish('driver.positions_reported', report);
  }

  @OnDomainEvent('driver.positions_reported')
  private positionsReported(e: DomainEventMap['driver.positions_reported'], meta: EventMeta): void {
    if (meta.local) return;
    for (let i = 0; i < e.driver_ids.length; i += 1) {
      this.drivers.heardAt(e.driver_ids[i], e.latitudes[i], e.longitudes[i], e.at_ms[i]);
    }
  }

  @OnDomainEvent('driver.availability_changed')
  private availabilityChanged(e: DomainEventMap['driver.availability_changed']): void {
    this.changed(e.user_id);
    this.drivers.setAvailability(e.user_id, { online: e.is_online, approved: e.approved, vehicleCategoryId: e.vehicle_category_id });
  }

  @OnDomainEvent('driver.profile_changed')
  private profileChanged(e: DomainEventMap['driver.profile_changed']): void {
    this.changed(e.user_id);
    this.drivers.setCategory(e.user_id, e.vehicle_category_id);
  }

  @OnDomainEvent('ride.accepted')
  private rideAccepted(e: DomainEventMap['ride.accepted']): void {
    this.changed(e.driver_id);
    this.drivers.assigned(e.driver_id, e.ride_id);
  }

  @OnDomainEvent('ride.status_changed', 'ride.cancelled')
  private rideChanged(e: { ride_id: string; driver_id: number | null; ride: { status: string } }): void {
    if (e.driver_id === null || !isFinalStatus(e.ride.status)) return;
    this.changed(e.driver_id);
    this.drivers.released(e.driver_id, e.ride_id);
  }

  /** Blocked or deleted: no more heartbeats will come, so the last one must not keep matching. */
  @OnDomainEvent('user.access_revoked')
  private accessRevoked(e: DomainEventMap['user.access_revoked']): void {
    this.drivers.forgetPosition(e.user_id);
  }

  private changed(driverId: number): void {
    this.applied += 1;
    this.changedAt.set(driverId, this.applied);
  }

  private async reconcile(): Promise<void> {
    try {
      await this.reload();
    } catch (err) {
      this.logger.error({ err, msg: 'Matcher reconciliation failed; the next one retries' });
    }
  }

  /** Concurrent calls share one reload. */
  reload(): Promise<void> {
    this.reloading ??= this.load().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  private async load(): Promise<void> {
    const since = this.applied;
    const [rows, assignments] = await Promise.all([this.repository.findOnlineApproved(), this.rides.findAssignedRideIdsByDriver()]);
    // What an event applied while the queries ran said is newer than their answer.
    const keep = (driverId: number): boolean => (this.changedAt.get(driverId) ?? 0) > since;
    const heardSince = Date.now() - this.maxAgeMs;
    const online = new Set<number>();
    for (const row of rows) {
      online.add(row.user_id);
      if (!keep(row.user_id)) this.drivers.setAvailability(row.user_id, { online: true, approved: true, vehicleCategoryId: row.vehicle_category_id });
      const atMs = row.last_location_at?.getTime();
      if (atMs !== undefined && atMs >= heardSince && row.last_latitude !== null && row.last_longitude !== null) {
        this.drivers.heard(row.user_id, { latitude: row.last_latitude, longitude: row.last_longitude, atMs });
      }
    }
    this.drivers.offlineUnless(online, keep);
    this.drivers.replaceAssignments(assignments, keep);
    for (const [driverId, at] of this.changedAt) if (at <= since) this.changedAt.delete(driverId);
  }
}
