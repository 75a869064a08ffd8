import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RIDE_VIEW_COLUMNS, RIDE_VIEW_JOINS, RideViewRow } from '../read-models/ride-view';
import { RideCommandType, ruleOf, sqlPartyAllowing } from './ride-transitions';
import { LockedRide, lockedColumns, lockedOf, RideColumns } from './ride-writes.repository';

/** Columns a step writes beside the status: RideColumns' values, or the acting party's role (cancelled_by). */
export type StepColumns = Omit<RideColumns, 'cancelled_by'> & { cancelled_by?: RideColumns['cancelled_by'] | 'party' };

/** What one step statement found and did. */
export interface StepOutcome {
  /** The ride as it was when locked (undefined: no such ride). */
  locked?: LockedRide;
  /** The ride as the API shows it after the change; undefined when the table refused it. */
  view?: RideViewRow;
  /** The drivers whose pending bids the change withdrew. */
  withdrawnBidders: number[];
}

const LOCKED_PREFIX = 'locked_';

/** Assignments of StepColumns over the parameter list `params` (only these columns ever reach the statement). */
function assignments(set: StepColumns, params: unknown[]): string[] {
  const sql: string[] = [];
  const param = (value: unknown): string => `$${params.push(value)}`;
  for (const [column, value] of Object.entries(set)) {
    if (value === undefined) continue;
    if (column === 'cancelled_by') sql.push(`cancelled_by = ${value === 'party' ? 'l.party' : param(value)}`);
    else if (column === 'expires_in_minutes') sql.push(`expires_at = now() + make_interval(mins => ${param(value)}::int)`);
    else if (column === 'driver_id' || column === 'accepted_bid_id' || column === 'fare_minor' || column === 'cancel_reason') sql.push(`${column} = ${param(value)}`);
    else throw new Error(`unknown ride column ${column}`);
  }
  return sql;
}

/**
 * A status step in one statement, derived from the command's row of the transition table: the ride
 * locked FOR UPDATE, the acting party judged by the table's status and time rules, and only if they
 * allow it the status with its stamp and `set`, the withdrawn bids (rules with withdrawsBids), the
 * ride_events row and the ride's view read back. Outside a transaction it is one round trip and
 * commits by itself; in one (hooks), it takes its part like any statement.
 */
@Injectable()
export class RideStepsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async step(type: RideCommandType, rideId: string, actorId: number, set: StepColumns, reason: string | null, manager?: EntityManager): Promise<StepOutcome> {
    const rule = ruleOf(type);
    if (!rule.to) throw new Error(`${type} changes no status`);
    const params: unknown[] = [rideId, actorId, rule.to, reason];
    const sets = ['status = $3', 'updated_at = now()', ...(rule.stamp ? [`${rule.stamp} = now()`] : []), ...assignments(set, params)];
    const withdrawn = rule.withdrawsBids
      ? `, withdrawn AS (UPDATE bids SET status = 'withdrawn', updated_at = now()
           WHERE ride_id IN (SELECT id FROM changed) AND status = 'pending' RETURNING driver_id)`
      : '';
    const rows: Array<Record<string, unknown>> = await (manager ?? this.dataSource.manager).query(
      `WITH l AS (
         SELECT r.*, CASE WHEN r.passenger_id = $2 THEN 'passenger' WHEN r.driver_id = $2 THEN 'driver' ELSE 'other' END AS party
           FROM rides r WHERE r.id = $1 FOR UPDATE
       ), changed AS (
         UPDATE rides SET ${sets.join(', ')} FROM l WHERE rides.id = l.id AND ${sqlPartyAllowing(type, 'l')} RETURNING rides.*
       )${withdrawn}, recorded AS (
         INSERT INTO ride_events (ride_id, from_status, to_status, actor_user_id, actor_role, reason)
         SELECT c.id, l.status, c.status, $2::int, l.party, $4 FROM changed c JOIN l ON l.id = c.id
       )
       SELECT ${lockedColumns('l', LOCKED_PREFIX)}, ${rule.withdrawsBids ? 'ARRAY(SELECT driver_id FROM withdrawn)' : "'{}'::int[]"} AS withdrawn_bidders,
              r.id IS NOT NULL AS changed, ${RIDE_VIEW_COLUMNS}
         FROM l LEFT JOIN changed r ON r.id = l.id ${RIDE_VIEW_JOINS}`,
      params,
    );
    const row = rows[0];
    if (!row) return { withdrawnBidders: [] };
    return {
      locked: lockedOf(row, LOCKED_PREFIX),
      view: row.changed ? (row as unknown as RideViewRow) : undefined,
      withdrawnBidders: row.withdrawn_bidders as number[],
    };
  }
}
