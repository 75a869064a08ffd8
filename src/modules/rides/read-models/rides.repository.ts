import { ASSIGNED_STATUSES, LIVE_STATUSES, sqlStatusList } from '../ride-status';
import { RIDE_TRANSITIONS } from '../transitions/ride-transitions';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RIDE_VIEW_COLUMNS, RIDE_VIEW_FROM, RideViewRow } from './ride-view';

const LIVE = sqlStatusList(LIVE_STATUSES);
const ASSIGNED = sqlStatusList(ASSIGNED_STATUSES);
/** The statuses a bid is placed in: a driver whose bid is pending may read the ride while it is in one. */
const BIDDABLE_STATUS = `r.status IN ${sqlStatusList(RIDE_TRANSITIONS.bid.from.other)}`;

/** Read side of rides: every query returns the ride view (ride + public profiles) in one statement. */
@Injectable()
export class RidesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async findView(rideId: string, manager?: EntityManager): Promise<RideViewRow | undefined> {
    const rows: RideViewRow[] = await this.m(manager).query(`SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE r.id = $1`, [rideId]);
    return rows[0];
  }

  async findViews(rideIds: string[], manager?: EntityManager): Promise<RideViewRow[]> {
    if (rideIds.length === 0) return [];
    return this.m(manager).query(`SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE r.id = ANY($1::uuid[])`, [rideIds]);
  }

  /**
   * The ride if this user may see it: its passenger, its assigned driver, or a driver whose bid on
   * it is still pending (they need the details to follow the request they bid on).
   */
  async findViewVisibleTo(rideId: string, userId: number): Promise<RideViewRow | undefined> {
    const rows: RideViewRow[] = await this.dataSource.query(
      `SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM}
        WHERE r.id = $1
          AND (r.passenger_id = $2 OR r.driver_id = $2
               OR (${BIDDABLE_STATUS}
                   AND EXISTS (SELECT 1 FROM bids b WHERE b.ride_id = r.id AND b.driver_id = $2 AND b.status = 'pending')))`,
      [rideId, userId],
    );
    return rows[0];
  }

  /**
   * The passenger's live ride. A ride booked for later is dispatched even while another is live, so
   * there may be two: the one a driver has taken comes first, then the newest (rides_passenger_live_idx).
   */
  async findLiveViewOfPassenger(passengerId: number, manager?: EntityManager): Promise<RideViewRow | undefined> {
    const rows: RideViewRow[] = await this.m(manager).query(
      `SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE r.passenger_id = $1 AND r.status IN ${LIVE}
        ORDER BY r.driver_id IS NULL, r.created_at DESC LIMIT 1`,
      [passengerId],
    );
    return rows[0];
  }

  /** Uses the partial unique index rides_driver_live_uq. */
  async findAssignedViewOfDriver(driverId: number, manager?: EntityManager): Promise<RideViewRow | undefined> {
    const rows: RideViewRow[] = await this.m(manager).query(
      `SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE r.driver_id = $1 AND r.status IN ${ASSIGNED}`,
      [driverId],
    );
    return rows[0];
  }

  async findAssignedRefOfDriver(driverId: number, manager?: EntityManager): Promise<{ id: string; passenger_id: number | null } | undefined> {
    const rows: Array<{ id: string; passenger_id: number | null }> = await this.m(manager).query(
      `SELECT id, passenger_id FROM rides WHERE driver_id = $1 AND status IN ${ASSIGNED}`,
      [driverId],
    );
    return rows[0];
  }

  /** The assigned ride of each listed driver that has one (one indexed query for many heartbeats). */
  async findAssignedRefsOfDrivers(driverIds: readonly number[]): Promise<Array<{ id: string; driver_id: number; passenger_id: number | null }>> {
    return this.m().query(`SELECT id, driver_id, passenger_id FROM rides WHERE driver_id = ANY($1::int[]) AND status IN ${ASSIGNED}`, [driverIds]);
  }

  /** Every driver assigned to a ride not yet over, with that ride (the matcher's start-up and reconciliation). */
  async findAssignedRideIdsByDriver(): Promise<Array<{ id: string; driver_id: number }>> {
    return this.m().query(`SELECT id, driver_id FROM rides WHERE driver_id IS NOT NULL AND status IN ${ASSIGNED}`);
  }

  async userHasLiveRide(userId: number, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.m(manager).query(`SELECT 1 FROM rides WHERE (passenger_id = $1 OR driver_id = $1) AND status IN ${LIVE} LIMIT 1`, [
      userId,
    ]);
    return rows.length > 0;
  }

  async passengerHasLiveRide(passengerId: number, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.m(manager).query(`SELECT 1 FROM rides WHERE passenger_id = $1 AND status IN ${LIVE}`, [passengerId]);
    return rows.length > 0;
  }

  async listPassengerHistory(passengerId: number, status: string | undefined, offset: number, limit: number): Promise<{ rows: RideViewRow[]; total: number }> {
    const params: unknown[] = [passengerId];
    let filter = '';
    if (status) {
      params.push(status);
      filter = ` AND r.status = $2`;
    }
    const [rows, count] = await Promise.all([
      this.dataSource.query(
        `SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE r.passenger_id = $1${filter}
          ORDER BY r.created_at DESC, r.id DESC OFFSET ${offset} LIMIT ${limit}`,
        params,
      ) as Promise<RideViewRow[]>,
      this.dataSource.query(`SELECT count(*)::int AS total FROM rides r WHERE r.passenger_id = $1${filter}`, params) as Promise<Array<{ total: number }>>,
    ]);
    return { rows, total: count[0]?.total ?? 0 };
  }

  /** When the next ride booked for later is due for dispatch (rides_scheduled_dispatch_idx); null when none waits. */
  async nextDispatchAt(): Promise<Date | null> {
    const rows: Array<{ at: Date | null }> = await this.dataSource.query(`SELECT min(dispatch_at) AS at FROM rides WHERE status = 'scheduled'`);
    return rows[0]?.at ?? null;
  }

  /** The passenger's rides booked for later and not yet dispatched, soonest pickup first (rides_passenger_scheduled_idx). */
  async listScheduledOfPassenger(passengerId: number, offset: number, limit: number): Promise<{ rows: RideViewRow[]; total: number }> {
    const where = `r.passenger_id = $1 AND r.status = 'scheduled'`;
    const [rows, count] = await Promise.all([
      this.dataSource.query(`SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE ${where} ORDER BY r.pickup_at, r.id OFFSET ${offset} LIMIT ${limit}`, [
        passengerId,
      ]) as Promise<RideViewRow[]>,
      this.dataSource.query(`SELECT count(*)::int AS total FROM rides r WHERE ${where}`, [passengerId]) as Promise<Array<{ total: number }>>,
    ]);
    return { rows, total: count[0]?.total ?? 0 };
  }
}
