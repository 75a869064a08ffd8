import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sqlAllowing } from '../../transitions/ride-transitions';
import { RIDE_PUBLIC_COLUMNS, RIDE_VIEW_FROM, RideViewRow } from '../ride-view';

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

/** The open-requests index's reads: the start-up load, reconciliation's fingerprints and re-reads. */
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
      for (let next = fetch(); ; ) {
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
