import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CommonError } from '../../common/errors/common.errors';
import type { GeoPoint } from '../../common/events/domain-events';
import { EventBus } from '../../common/events/event-bus';
import { OnDomainEvent } from '../../common/events/on-domain-event';
import { BatchLoader } from '../../common/cache/batch-loader';
import { ReadThroughCache } from '../../common/cache/read-through-cache';
import { AppConfig } from '../../config/app-config';
import { PaymentsService } from '../payments/payments.service';
import { VehicleCategoriesService } from '../pricing/vehicle-categories.service';
import type { SurgeSupplyPort } from '../pricing/surge-signals.port';
import type { BiddingDriversPort } from '../rides/bidding-drivers.port';
import type { DriverRatingsPort } from '../rides/rating-averages.port';
import { DriverProfileView, driverProfileToJson } from './driver-profile.view';
import { DriverLocationsService } from './driver-locations.service';
import { approvedDriverSql, DriverApprovalStatus, DriverProfileChanges, DriverRow, DriversRepository } from './drivers.repository';
import { DriverError } from './drivers.errors';
import { DriverMatchingService } from './matching/driver-matching.service';
import { DriverDocumentsRepository } from './documents/driver-documents.repository';
import type { DocumentKind } from './entities/driver-document.entity';
import { AuditedBy, AuditService } from '../audit/audit.service';

export type DriverDecision = 'approve' | 'reject' | 'suspend' | 'reinstate';
const DECISION_STATUS: Readonly<Record<DriverDecision, DriverApprovalStatus>> = {
  approve: 'approved',
  reject: 'rejected',
  suspend: 'suspended',
  reinstate: 'approved',
};
/** What approval needs on file (CONTRACT §13), in the order the 409 names them. */
const REQUIRED_DOCUMENTS: readonly DocumentKind[] = ['license', 'vehicle_registration'];

/**
 * Driver records: profile, availability, operator approval and the queries other modules need
 * (who is online near a pickup, lock a driver while assigning a ride).
 */
@Injectable()
export class DriversService implements BiddingDriversPort, SurgeSupplyPort, DriverRatingsPort {
  /**
   * Nearby needs the driver's status and category on every call. The record is cached per instance
   * and forgotten by the driver events (after the write, on every instance), never by the writers.
   */
  private readonly cache: ReadThroughCache<number, { row: DriverRow | undefined }>;
  /**
   * Misses of one turn share a statement: every driver's entry expires DRIVER_CACHE_MS after the
   * first poll, so a fleet that came online together misses together (10,000 drivers: up to 1,000
   * lookups a second, each its own pool checkout, ahead of the ride writes in the pool's queue).
   */
  private readonly loader: BatchLoader<number, DriverRow>;
  private readonly autoApprove: boolean;

  constructor(
    private readonly drivers: DriversRepository,
    private readonly categories: VehicleCategoriesService,
    private readonly locations: DriverLocationsService,
    private readonly matching: DriverMatchingService,
    private readonly events: EventBus,
    private readonly payments: PaymentsService,
    private readonly documents: DriverDocumentsRepository,
    private readonly audit: AuditService,
    config: AppConfig,
  ) {
    this.autoApprove = config.driverAutoApprove;
    this.cache = new ReadThroughCache({ ttlMs: config.driverCacheMs, maxEntries: config.driverCacheMaxEntries });
    // Events published while the bus was down never arrive: forget every record then, so that the
    // TTL only bounds an event lost some other way.
    events.onResumed(() => this.cache.clear());
    this.loader = new BatchLoader({ loadOne: (id) => drivers.findByUserId(id), loadMany: (ids) => drivers.findByUserIds(ids) });
  }

  /** Registration creates the record a lookup before it found missing; deletion removes it. */
  @OnDomainEvent('driver.profile_changed', 'driver.availability_changed', 'user.registered', 'user.access_revoked')
  private forget(e: { user_id: number }): void {
    this.cache.invalidate(e.user_id);
  }

  /** The profile of CONTRACT.md 4a, with the newest heartbeat (any instance) over the flushed one. */
  async toJson(row: DriverRow): Promise<DriverProfileView> {
    const [latest, payoutsEnabled] = await Promise.all([this.locations.latestOf(row.user_id), this.payments.payoutsEnabled(row.user_id)]);
    return driverProfileToJson(row, latest, payoutsEnabled);
  }

  async getProfile(userId: number): Promise<DriverProfileView> {
    const row = await this.getDriver(userId);
    return this.toJson(row);
  }

  async getDriver(userId: number): Promise<DriverRow> {
    const row = await this.drivers.findByUserId(userId);
    if (!row) throw new DriverError('DRIVER_NOT_FOUND');
    return row;
  }

  /** The record of a driver who may work (bid, take rides): DRIVER_NOT_FOUND, else DRIVER_NOT_APPROVED unless approved. */
  async getApprovedDriver(userId: number): Promise<DriverRow> {
    const row = await this.getDriver(userId);
    if (row.status !== 'approved') throw new DriverError('DRIVER_NOT_APPROVED');
    return row;
  }

  /** The driver record, at most DRIVER_CACHE_MS old; any change through the service is seen at once. */
  /** The cached record while it is fresh, without a promise; undefined when only getDriverCached can tell. */
  peekDriverCached(userId: number): DriverRow | undefined {
    return this.cache.peek(userId)?.row;
  }

  async getDriverCached(userId: number): Promise<DriverRow> {
    const hit = await this.cache.get(userId, async () => ({ row: await this.loader.load(userId) }));
    if (!hit?.row) throw new DriverError('DRIVER_NOT_FOUND');
    return hit.row;
  }

  async updateProfile(userId: number, changes: DriverProfileChanges): Promise<DriverRow> {
    if (changes.vehicle_category_id !== undefined && changes.vehicle_category_id !== null) {
      if (!(await this.categories.findActive(changes.vehicle_category_id))) {
        throw CommonError.validation('vehicle_category_id', 'vehicle_category_id does not name an active vehicle category');
      }
    }
    const row = await this.drivers.updateProfile(userId, changes);
    if (!row) throw new DriverError('DRIVER_NOT_FOUND');
    // Rides show the driver's vehicle (ride caches on every instance).
    this.events.publish('driver.profile_changed', { user_id: userId, vehicle_category_id: row.vehicle_category_id });
    return row;
  }

  /** Only approved drivers may go online; going offline is always allowed. */
  async setOnline(userId: number, isOnline: boolean): Promise<DriverRow> {
    if (isOnline) await this.getApprovedDriver(userId);
    const row = await this.drivers.setOnline(userId, isOnline);
    if (!row) throw new DriverError('DRIVER_NOT_FOUND');
    this.availabilityChanged(row);
    return row;
  }

  /**
   * An operator's decision on a driver, the one rule for the API and the CLI (CONTRACT §13), with
   * its audit entry in the same transaction. Approval needs the license and the vehicle
   * registration on file unless DRIVER_AUTO_APPROVE is on; reinstating lifts a suspension only.
   * Anything but approved also takes the driver offline.
   */
  async decide(userId: number, decision: DriverDecision, by: AuditedBy): Promise<DriverRow> {
    const status = DECISION_STATUS[decision];
    if (!status) throw CommonError.validation('decision', `decision must be one of ${Object.keys(DECISION_STATUS).join(', ')}`);
    const row = await this.drivers.runInTransaction(async (manager) => {
      const current = await this.drivers.lockByUserId(userId, manager);
      if (!current) throw new DriverError('DRIVER_NOT_FOUND');
      if (decision === 'reinstate' && current.status !== 'suspended') throw new DriverError('DRIVER_NOT_SUSPENDED');
      if (decision === 'approve' && !this.autoApprove) {
        const onFile = await this.documents.kindsOf(userId, manager);
        const missing = REQUIRED_DOCUMENTS.filter((kind) => !onFile.includes(kind));
        if (missing.length) throw new DriverError('DOCUMENTS_MISSING', `Documents missing: ${missing.join(', ')}`);
      }
      const updated = (await this.drivers.setApprovalStatus(userId, status, manager))!;
      await this.audit.record(
        { ...by, action: `drivers.${decision}`, targetType: 'driver', targetId: userId, details: { previous_status: current.status, status } },
        manager,
      );
      return updated;
    });
    this.availabilityChanged(row);
    return row;
  }

  /** GET /admin/drivers: the driver records, newest first, optionally of one status. */
  async listPage(status: DriverApprovalStatus | undefined, page: number, limit: number): Promise<{ items: DriverProfileView[]; total: number }> {
    const { rows, total } = await this.drivers.findPage(status, (page - 1) * limit, limit);
    return { items: await Promise.all(rows.map((row) => this.toJson(row))), total };
  }

  /** The committed row travels with the event: every instance's matcher takes it as it is. */
  private availabilityChanged(row: DriverRow): void {
    this.events.publish('driver.availability_changed', {
      user_id: row.user_id,
      is_online: row.is_online,
      approved: row.status === 'approved',
      vehicle_category_id: row.vehicle_category_id,
    });
  }

  /**
   * Who receives ride_requested: approved, online drivers whose vehicle category is the ride's (or
   * who serve every category) and whose last heartbeat, younger than DRIVER_LOCATION_MAX_AGE_SECONDS,
   * is within radiusKm of the point. From this instance's memory (DriverMatchingService): no query.
   */
  findOnlineDriverIdsNear(vehicleCategoryId: number, point: GeoPoint, radiusKm: number): number[] {
    return this.matching.driversToTell(vehicleCategoryId, point, radiusKm);
  }

  /** Supply for surge (SurgeSupplyPort): the drivers above who hold no non-final ride, counted from memory. */
  countAvailableDriversNear(point: GeoPoint, radiusKm: number, vehicleCategoryId: number): number {
    return this.matching.countAvailableNear(point, radiusKm, vehicleCategoryId);
  }

  /** A passenger rated the driver (DriverRatingsPort): the drivers row's part of the `rate` command's statement. */
  addDriverRatingSql(userId: string, stars: string): string {
    return this.drivers.addRatingSql(userId, stars);
  }

  /** The record of a user registering as a driver, inside the registration's transaction. */
  createDriverRecord(userId: number, status: 'pending' | 'approved', manager?: EntityManager): Promise<void> {
    return this.drivers.insertInitial(userId, status, manager);
  }

  /** The driver record read inside the caller's transaction (no lock); undefined when there is none. */
  findDriver(userId: number, manager: EntityManager): Promise<DriverRow | undefined> {
    return this.drivers.findByUserId(userId, manager);
  }

  /** BiddingDriversPort: whether the user `userIdExpr` names is an approved driver, as SQL for the caller's statement. */
  approvedDriverSql(userIdExpr: string): string {
    return approvedDriverSql(userIdExpr);
  }
}
