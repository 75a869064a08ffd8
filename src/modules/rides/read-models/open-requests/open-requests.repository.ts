import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { sqlHaversineKm } from '../../../../common/geo';
import { sqlAllowing } from '../../transitions/ride-transitions';
import { RIDE_PUBLIC_COLUMNS, RIDE_VIEW_FROM, RideViewRow } from '../ride-view';
import type { NearbyQuery } from './nearby-page';

/** Rides a driver may bid on (the table's `bid` row): exactly what the index holds, and what nearby lists. */
const OPEN_FOR_BIDS = sqlAllowing('bid', 'other', 'r');

/** The ride view row and its fingerprint (53 bits of the database's hash of that row: a double holds them exactly). */
export type OpenRequestRow = RideViewRow & { fp: number };

/**
 * The view rows of open requests, each with `fp`: a hash of the very columns the wire JSON is
 * written from, so reconciliation compares a number per ride instead of every field
 * (hash_record_extended: PostgreSQL 14 or later; the machine's is 15, Docker's 16, the embedded 18).
 */
function openViews(where: string): string {
  return `SELECT v.*, (hash_record_extended(v, 0) >> 11)::float8 AS fp
            FROM (SELECT ${RIDE_PUBLIC_COLUMNS} ${RIDE_VIEW_FROM} WHERE ${OPEN_FOR_BIDS} ${where}) v`;
}

/** A nearby ride as the database finds it: the view row, its haversine distance_km and its chord (the page's order). */
export type NearestRow = RideViewRow & { distance_km: number; chord: number };

/** The open-requests index's reads (the start-up load, reconciliation's fingerprints and re-reads) and nearby's rows while it loads. */
@Injectable()
export class OpenRequestsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Every open request, streamed through a cursor in pages of `pageSize` (one snapshot, one scan:
   * keyset pages re-planned the join for each page and cost 50× more at 100k rides), each page
   * handed to `onPage` before the next is fetched; `onPage` returning false stops it (shutdown).
   * See OPEN_REQUESTS_LOAD_PLAN below.
   */
  streamOpen(pageSize: number, onPage: (rows: OpenRequestRow[]) => Promise<boolean>): Promise<void> {
    return this.stream(openViews(''), pageSize, onPage);
  }

  /**
   * Every open request's id and fingerprint, streamed like streamOpen (one snapshot): one statement
   * of a million rows would be parsed and compared in one turn of the event loop, seconds without
   * answering a request.
   */
  streamFingerprints(pageSize: number, onPage: (rows: Array<{ id: string; fp: number }>) => Promise<boolean>): Promise<void> {
    return this.stream(`SELECT id, fp FROM (${openViews('')}) o`, pageSize, onPage);
  }

  private async stream<T>(sql: string, pageSize: number, onPage: (rows: T[]) => Promise<boolean>): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction('REPEATABLE READ');
      await runner.query(`DECLARE open_requests NO SCROLL CURSOR FOR ${sql}`);
      const fetch = (): Promise<T[]> => {
        const page: Promise<T[]> = runner.query(`FETCH ${Math.trunc(pageSize)} FROM open_requests`);
        page.catch(() => undefined); // awaited below; an abandoned one (onPage threw) must not be an unhandled rejection
        return page;
      };
      // The next page is on its way while this one is applied: the database works as Node does.
      for (let next = fetch(); ;) {
        const rows = await next;
        const more = rows.length === pageSize;
        if (more) next = fetch();
        if ((rows.length > 0 && !(await onPage(rows))) || !more) {
          if (more) await next.catch(() => undefined);
          break;
        }
      }
      await runner.commitTransaction();
    } catch (err) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw err;
    } finally {
      await runner.release();
    }
  }

  /** The listed rides that are open requests, with their fingerprints (the others are not returned). */
  findOpen(ids: readonly string[]): Promise<OpenRequestRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.dataSource.query(openViews(`AND r.id = ANY($1::uuid[])`), [ids]);
  }

  /**
   * Open requests within radiusKm of a point, nearest first (chord, then id), at most `limit`, each
   * with its haversine distance_km: the rows nearby's page is written from until the index has
   * loaded. See nearbySql.
   */
  async findNearest(q: NearbyQuery): Promise<NearestRow[]> {
    const { sql, params, name } = nearbySql(q);
    // A named statement: each pooled connection parses and plans it once. Planning this query costs
    // several times its execution (measured: ~1.0 ms a call unnamed, ~0.16 ms named). The pg pool
    // directly, as TypeORM's query() cannot name a statement.
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    return (await pool.query<NearestRow>({ name, text: sql, values: params })).rows;
  }

  /** EXPLAIN (ANALYZE, FORMAT JSON) of exactly what findNearest runs; for the plan test only. */
  async explainNearest(q: NearbyQuery): Promise<unknown> {
    const { sql, params } = nearbySql(q);
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

/*
 * OPEN_REQUESTS_LOAD_PLAN: EXPLAIN (ANALYZE, BUFFERS) of the start-up load's query (streamOpen's
 * cursor query, run plainly) on the bench database at 100,001 open requests (10,001 drivers), PostgreSQL
 * 15, 2 cores shared with other work (load average about 10), 2026-11-25:
 *
 *   Gather (actual rows=100001, 472 ms)  Workers Launched: 2   Buffers: shared hit=13123 read=695
 *     -> Hash Left Join (r.driver_id = dr.user_id)
 *        -> Nested Loop Left Join (users du by users_pkey: 0 rows, no driver while requested)
 *           -> Merge Left Join (r.passenger_id = pu.id)
 *              -> Parallel Index Scan using rides_passenger_live_uq on rides r
 *                   Filter: status = 'requested' AND expires_at > now()
 *              -> Index Scan using users_pkey on users pu
 *        -> Hash <- Seq Scan on drivers dr
 *   Execution Time: 476 ms (one pass: every open request once, no sort)
 *
 * Reconciliation's streamFingerprints() is the same scan returning (id, fp): 425 ms at 100k, once per
 * OPEN_REQUESTS_RECONCILE_SECONDS per instance. The keyset pages this replaced (ORDER BY expires_at,
 * id LIMIT 2000 after a cursor) planned a full join and top-N sort per page: about 200 ms a page,
 * 50 pages, 22.7 s before nearby was answered from memory in the bench. A cursor does not run in
 * parallel, so expect the load somewhat slower than the 476 ms above.
 */
