import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { sqlHaversineKm } from '../fare/geo';
import { RIDE_VIEW_COLUMNS, RIDE_VIEW_FROM, RideViewRow } from '../views/ride-view';

export const LIVE_STATUSES = ['requested', 'accepted', 'driver_arrived', 'started'] as const;
export const ASSIGNED_STATUSES = ['accepted', 'driver_arrived', 'started'] as const;
const LIVE = `('requested', 'accepted', 'driver_arrived', 'started')`;
const ASSIGNED = `('accepted', 'driver_arrived', 'started')`;

/** Kilometres per degree of latitude (and of projected longitude, see pickup_geo). */
const KM_PER_DEGREE = 111.195;

export interface NearbyQuery {
  latitude: number;
  longitude: number;
  radiusKm: number;
  /** null: every category. */
  vehicleCategoryId: number | null;
  limit: number;
}

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
               OR (r.status = 'requested'
                   AND EXISTS (SELECT 1 FROM bids b WHERE b.ride_id = r.id AND b.driver_id = $2 AND b.status = 'pending')))`,
      [rideId, userId],
    );
    return rows[0];
  }

  /** Uses the partial unique index rides_passenger_live_uq. */
  async findLiveViewOfPassenger(passengerId: number, manager?: EntityManager): Promise<RideViewRow | undefined> {
    const rows: RideViewRow[] = await this.m(manager).query(
      `SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE r.passenger_id = $1 AND r.status IN ${LIVE}`,
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

  async findAssignedRefOfDriver(
    driverId: number,
    manager?: EntityManager,
  ): Promise<{ id: string; passenger_id: number | null } | undefined> {
    const rows: Array<{ id: string; passenger_id: number | null }> = await this.m(manager).query(
      `SELECT id, passenger_id FROM rides WHERE driver_id = $1 AND status IN ${ASSIGNED}`,
      [driverId],
    );
    return rows[0];
  }

  async passengerHasLiveRide(passengerId: number, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.m(manager).query(`SELECT 1 FROM rides WHERE passenger_id = $1 AND status IN ${LIVE}`, [
      passengerId,
    ]);
    return rows.length > 0;
  }

  async listPassengerHistory(
    passengerId: number,
    status: string | undefined,
    offset: number,
    limit: number,
  ): Promise<{ rows: RideViewRow[]; total: number }> {
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
      this.dataSource.query(`SELECT count(*)::int AS total FROM rides r WHERE r.passenger_id = $1${filter}`, params) as Promise<
        Array<{ total: number }>
      >,
    ]);
    return { rows, total: count[0]?.total ?? 0 };
  }

  /**
   * Requested rides within radiusKm of a point, nearest first (great-circle distance, then id), at
   * most `limit`. The GiST index on the projected pickup point (x = longitude × cos(latitude),
   * y = latitude) answers the bounding box (`<@`); the exact haversine then drops the box's corners
   * and orders what is left. Rides past expires_at that the sweep has not reached yet are left out.
   */
  async findRequestedNear(q: NearbyQuery): Promise<Array<RideViewRow & { distance_km: number }>> {
    const box = projectedBox(q.latitude, q.longitude, q.radiusKm);
    const params: unknown[] = [q.latitude, q.longitude, q.radiusKm, box.xMin, box.yMin, box.xMax, box.yMax];
    let category = '';
    if (q.vehicleCategoryId !== null) {
      params.push(q.vehicleCategoryId);
      category = ` AND r.vehicle_category_id = $8`;
    }
    const distance = sqlHaversineKm('$1::float8', '$2::float8', 'r.pickup_latitude', 'r.pickup_longitude');
    return this.dataSource.query(
      `SELECT * FROM (
         SELECT ${RIDE_VIEW_COLUMNS}, ${distance} AS distance_km ${RIDE_VIEW_FROM}
          WHERE r.status = 'requested'
            AND r.pickup_geo <@ box(point($4::float8, $5::float8), point($6::float8, $7::float8))
            AND r.expires_at > now()${category}) AS near
        WHERE distance_km <= $3::float8
        ORDER BY distance_km, id
        LIMIT ${q.limit}`,
      params,
    );
  }
}

/**
 * The projected box that holds every point within radiusKm. In this projection x also moves with
 * latitude (x = lng × cos(lat)), so the x range spans lng × cos(lat') for every latitude lat' of
 * the band, widened by the radius; a 2% margin absorbs the spherical approximation.
 */
export function projectedBox(latitude: number, longitude: number, radiusKm: number) {
  const d = (radiusKm / KM_PER_DEGREE) * 1.02;
  const rad = Math.PI / 180;
  const lo = Math.max(-90, latitude - d);
  const hi = Math.min(90, latitude + d);
  const cosines = [Math.cos(lo * rad), Math.cos(hi * rad)];
  if (lo <= 0 && hi >= 0) cosines.push(1);
  const xs = cosines.map((c) => longitude * c);
  return {
    x: longitude * Math.cos(latitude * rad),
    xMin: Math.min(...xs) - d,
    xMax: Math.max(...xs) + d,
    yMin: lo,
    yMax: hi,
  };
}
