import { ASSIGNED_STATUSES, LIVE_STATUSES, sqlStatusList } from '../ride-status';
import { RIDE_TRANSITIONS, sqlAllowing } from '../transitions/ride-transitions';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { sqlHaversineKm } from '../../../common/geo';
import { jsonShapeSql, ObjectSpec } from '../../../common/database/json-shape';
import { RIDE_PUBLIC_COLUMNS, RIDE_SHAPE, RIDE_VIEW_COLUMNS, RIDE_VIEW_FROM, RideView, RideViewRow } from './ride-view';

const LIVE = sqlStatusList(LIVE_STATUSES);
const ASSIGNED = sqlStatusList(ASSIGNED_STATUSES);
/** Rides a driver may bid on (the table's `bid` row): the nearby page lists exactly these. */
const OPEN_FOR_BIDS = sqlAllowing('bid', 'other', 'r');
/** The statuses a bid is placed in: a driver whose bid is pending may read the ride while it is in one. */
const BIDDABLE_STATUS = `r.status IN ${sqlStatusList(RIDE_TRANSITIONS.bid.from.other)}`;

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

  /** The assigned ride of each listed driver that has one (one indexed query for many heartbeats). */
  async findAssignedRefsOfDrivers(
    driverIds: readonly number[],
  ): Promise<Array<{ id: string; driver_id: number; passenger_id: number | null }>> {
    return this.m().query(
      `SELECT id, driver_id, passenger_id FROM rides WHERE driver_id = ANY($1::int[]) AND status IN ${ASSIGNED}`,
      [driverIds],
    );
  }

  /** Every driver assigned to a ride not yet over, with that ride (the matcher's start-up and reconciliation). */
  async findAssignedRideIdsByDriver(): Promise<Array<{ id: string; driver_id: number }>> {
    return this.m().query(`SELECT id, driver_id FROM rides WHERE driver_id IS NOT NULL AND status IN ${ASSIGNED}`);
  }

  async userHasLiveRide(userId: number, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.m(manager).query(
      `SELECT 1 FROM rides WHERE (passenger_id = $1 OR driver_id = $1) AND status IN ${LIVE} LIMIT 1`,
      [userId],
    );
    return rows.length > 0;
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

  /** When the next ride booked for later is due for dispatch (rides_scheduled_dispatch_idx); null when none waits. */
  async nextDispatchAt(): Promise<Date | null> {
    const rows: Array<{ at: Date | null }> = await this.dataSource.query(`SELECT min(dispatch_at) AS at FROM rides WHERE status = 'scheduled'`);
    return rows[0]?.at ?? null;
  }

  /** The passenger's rides booked for later and not yet dispatched, soonest pickup first (rides_passenger_scheduled_idx). */
  async listScheduledOfPassenger(passengerId: number, offset: number, limit: number): Promise<{ rows: RideViewRow[]; total: number }> {
    const where = `r.passenger_id = $1 AND r.status = 'scheduled'`;
    const [rows, count] = await Promise.all([
      this.dataSource.query(
        `SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE ${where} ORDER BY r.pickup_at, r.id OFFSET ${offset} LIMIT ${limit}`,
        [passengerId],
      ) as Promise<RideViewRow[]>,
      this.dataSource.query(`SELECT count(*)::int AS total FROM rides r WHERE ${where}`, [passengerId]) as Promise<Array<{ total: number }>>,
    ]);
    return { rows, total: count[0]?.total ?? 0 };
  }

  /**
   * Requested rides within radiusKm of a point, nearest first (great-circle distance, then id), at
   * most `limit`, each with its exact haversine distance_km. See nearbySql.
   */
  async findRequestedNear(q: NearbyQuery): Promise<Array<RideViewRow & { distance_km: number }>> {
    const { sql, params, name } = nearbySql(q);
    // A named statement: each pooled connection parses and plans it once. Planning this query costs
    // several times its execution (measured: ~1.0 ms a call unnamed, ~0.16 ms named), and nearby is
    // a hot path. The pg pool directly, as TypeORM's query() cannot name a statement.
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    return (await pool.query<RideViewRow & { distance_km: number }>({ name, text: sql, values: params })).rows;
  }

  /**
   * findRequestedNear's page as the JSON array GET /driver/rides/nearby answers (each ride with
   * distance_km, 2 decimals), built by the database in the same round trip: one text value to
   * pass on instead of 50 rows × 50 columns to parse, map and serialise again.
   */
  async findRequestedNearJson(q: NearbyQuery): Promise<string> {
    const { sql, params, name } = nearbyJsonSql(q);
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    return (await pool.query<{ body: string }>({ name, text: sql, values: params })).rows[0]!.body;
  }

  /** EXPLAIN (ANALYZE, FORMAT JSON) of exactly what findRequestedNearJson runs; for the plan test only. */
  async explainRequestedNear(q: NearbyQuery): Promise<unknown> {
    const { sql, params } = nearbyJsonSql(q);
    const rows: Array<{ 'QUERY PLAN': unknown }> = await this.dataSource.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
    return rows[0]!['QUERY PLAN'];
  }
}

/** The joins of the ride view, applied to the rides a subquery picked (aliased r). */
const RIDE_VIEW_JOINS = RIDE_VIEW_FROM.replace(/^\s*FROM rides r\b/, '');
if (RIDE_VIEW_JOINS === RIDE_VIEW_FROM) throw new Error('RIDE_VIEW_FROM no longer starts with FROM rides r');

/** The pickup's unit vector, the same expression as the generated column rides.pickup_vec. */
const POINT_VEC = 'cube(ARRAY[cosd($1::float8) * cosd($2::float8), cosd($1::float8) * sind($2::float8), sind($1::float8)])';

/**
 * The nearby query. The partial GiST index rides_requested_near_idx (category, pickup unit vector)
 * returns requested rides in chord-distance order, which is great-circle order, so the scan stops
 * after `limit` rows whatever the number of requests around the point. Only those rows are joined
 * to the profiles and get their exact haversine, which drops the ones beyond the radius. Rides past
 * expires_at that the sweep has not reached yet are skipped inside the scan.
 *
 * Deliberately no bounding condition inside the scan: the planner cannot estimate a cube
 * containment (it assumes 0.1% of the rows) and then prefers a bitmap scan of the whole box and a
 * sort, the cost this index exists to avoid; without it the scan still reads at most `limit` rows
 * (plus unswept expired ones). Likewise no second sort key there (it would force a sort of every
 * requested ride): rides exactly as far as the page's last one may be cut in any order; the page
 * itself is ordered by distance, then id.
 */
export function nearbySql(q: NearbyQuery): { sql: string; params: unknown[]; name: string } {
  const params: unknown[] = [q.latitude, q.longitude, q.radiusKm];
  let category = '';
  if (q.vehicleCategoryId !== null) {
    params.push(q.vehicleCategoryId);
    category = ` AND r.vehicle_category_id = $4::int`;
  }
  const distance = sqlHaversineKm('$1::float8', '$2::float8', 'r.pickup_latitude', 'r.pickup_longitude');
  const sql = `SELECT * FROM (
       SELECT ${RIDE_PUBLIC_COLUMNS}, ${distance} AS distance_km, r.chord
         FROM (SELECT r.*, r.pickup_vec <-> ${POINT_VEC} AS chord
                 FROM rides r
                WHERE ${OPEN_FOR_BIDS}${category}
                ORDER BY r.pickup_vec <-> ${POINT_VEC}
                LIMIT ${Math.trunc(q.limit)}) r ${RIDE_VIEW_JOINS}) AS near
      WHERE distance_km <= $3::float8
      ORDER BY chord, id`;
  return { sql, params, name: `rides_nearby_${q.vehicleCategoryId === null ? 'any' : 'category'}_${Math.trunc(q.limit)}` };
}

/** A nearby ride: the ride as every endpoint returns it, and how far its pickup is, in km to 2 decimals. */
const NEARBY_RIDE_SHAPE: ObjectSpec<RideView & { distance_km: number }, RideViewRow & { distance_km: number }> = {
  fields: { ...RIDE_SHAPE.fields, distance_km: { from: ['distance_km'], as: 'hundredths' } },
};
const NEARBY_RIDE_JSON = jsonShapeSql(NEARBY_RIDE_SHAPE, 'near');

/**
 * nearbySql's page as one JSON text built by the database from the ride's shape, '[]' when empty.
 * Returned as text: the json type would be parsed by the driver only to be serialised again.
 */
export function nearbyJsonSql(q: NearbyQuery): { sql: string; params: unknown[]; name: string } {
  const rows = nearbySql(q);
  const sql = `SELECT COALESCE(json_agg(${NEARBY_RIDE_JSON} ORDER BY near.chord, near.id), '[]')::text AS body
    FROM (${rows.sql}) AS near`;
  return { sql, params: rows.params, name: `${rows.name}_json` };
}
