import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { queryPrepared } from '../../../common/database/prepared-query';
import { RIDE_VIEW_COLUMNS, RIDE_VIEW_JOINS, RideViewRow } from '../read-models/ride-view';
import { LIVE_STATUSES, RideStatus, sqlStatusList } from '../ride-status';
import { RideCommandType, ruleOf, sqlPartyAllowing } from './ride-transitions';
import { COLUMN_SQL, LockedRide, lockedColumns, lockedOf, NewRide, RideColumns } from './ride-writes.repository';

/** A column of the step's source row (the CTE `src`, RideStepHandler.source) as a column's value: accept's bid. */
export interface SourceColumn {
  src: string;
}

/**
 * Columns a step writes beside the status: RideColumns' values, a column of the step's source row,
 * or the acting party's role (cancelled_by).
 */
export type StepColumns = { [C in Exclude<keyof RideColumns, 'cancelled_by'>]?: RideColumns[C] | SourceColumn } & {
  cancelled_by?: RideColumns['cancelled_by'] | 'party';
};

/** What a step statement holds beside the table's change: the handler's part (RideStepHandler). */
export interface StepChange {
  set: StepColumns;
  reason: string | null;
  /** The body of the CTE `src` over `l`: at most one row, which `set`, `where` and `also` may read. */
  source?: (param: (value: unknown) => string) => string;
  /** SQL over `l` (and `src`) under which the step applies (true without one). */
  where?: (param: (value: unknown) => string) => string;
  /** A further CTE reading `changed`; its rows come back as `also`. */
  also?: (param: (value: unknown) => string) => string;
  /** The ride is taken only if nobody holds it (FOR UPDATE NOWAIT): else the statement fails with 55P03, having written nothing. */
  nowait?: boolean;
}

/** What one step statement found and did. */
export interface StepOutcome {
  /** The ride as it was when locked (undefined: no such ride). */
  locked?: LockedRide;
  /** The ride as the API shows it after the change; undefined when the table refused it. */
  view?: RideViewRow;
  /** The drivers whose pending bids the change withdrew. */
  withdrawnBidders: number[];
  /** The rows the handler's `also` CTE returned (none without one). */
  also: Array<Record<string, unknown>>;
  /** Whether the step's `where` held for the locked ride (true without one). */
  onlyWhere: boolean;
}

const LOCKED_PREFIX = 'locked_';

/** Who acts, as the statements judge it: a user, or an operator acting for the service (whatever their relation to the ride). */
export interface StepActor {
  id: number;
  operator?: true;
}

/** The ride $1 locked, with the party user $2 is to it (partyOf's rule: an operator, else its passenger, then its driver). */
function lockedRow(lock: 'share' | 'update', actor: StepActor, nowait = false): string {
  return `SELECT r.*, CASE WHEN ${actor.operator ? 'true' : 'false'} THEN 'operator' WHEN r.passenger_id = $2 THEN 'passenger'
      WHEN r.driver_id = $2 THEN 'driver' ELSE 'other' END AS party
    FROM rides r WHERE r.id = $1 FOR ${lock === 'share' ? 'SHARE' : 'UPDATE'}${nowait ? ' NOWAIT' : ''}`;
}

/** What inserting a ride found: the passenger's live ride that refused it, or the ride as the API shows it. */
export interface InsertOutcome {
  live: boolean;
  /** Undefined when refused: a live ride (`live`), or a unique index (the ride code is taken). */
  view?: RideViewRow;
}

/** The rides row of a new ride (json_populate_record gives each value its column's type). */
function rideRecord(r: NewRide, status: RideStatus): Record<string, unknown> {
  return {
    id: r.id,
    ride_code: r.rideCode,
    status,
    ride_type: r.rideType,
    passenger_id: r.passengerId,
    vehicle_category_id: r.vehicleCategoryId,
    pickup_address: r.pickup.address,
    pickup_latitude: r.pickup.latitude,
    pickup_longitude: r.pickup.longitude,
    dropoff_address: r.dropoff.address,
    dropoff_latitude: r.dropoff.latitude,
    dropoff_longitude: r.dropoff.longitude,
    return_address: r.returnLocation?.address ?? null,
    return_latitude: r.returnLocation?.latitude ?? null,
    return_longitude: r.returnLocation?.longitude ?? null,
    passenger_count: r.passengerCount,
    children: r.children,
    payment_method: r.paymentMethod,
    duration_minutes: r.durationMinutes,
    end_scheduled_at: r.endScheduledAt,
    return_scheduled_at: r.returnScheduledAt,
    promo_code: r.promoCode,
    estimate: r.estimate,
    estimated_fare_minor: r.estimate.totalMinor,
    currency: r.currency,
    pickup_at: r.pickupAt,
    dispatch_at: r.dispatchAt,
    offered_fare_minor: r.offeredFareMinor,
    // A card ride's money is pending until the hold at acceptance.
    payment_status: r.paymentMethod === 'card' ? 'pending' : null,
  };
}

const RIDE_RECORD_COLUMNS = Object.keys(rideRecord({ pickup: {}, dropoff: {}, estimate: {} } as NewRide, 'requested'));

const SOURCE_COLUMN = /^[a-z_][a-z0-9_]*$/;

/** Assignments of StepColumns, values as parameters (`param`); only RideColumns' columns ever reach the statement. */
function assignments(set: StepColumns, param: (value: unknown) => string): string[] {
  return Object.entries(set).flatMap(([column, value]: [string, unknown]) => {
    if (value === undefined) return [];
    if (!Object.hasOwn(COLUMN_SQL, column)) throw new Error(`unknown ride column ${column}`);
    const assign = COLUMN_SQL[column as keyof RideColumns];
    if (column === 'cancelled_by' && value === 'party') return [assign('l.party')];
    if (typeof value !== 'object' || value === null || !('src' in value)) return [assign(param(value))];
    const { src } = value as SourceColumn;
    if (!SOURCE_COLUMN.test(src)) throw new Error(`bad source column ${src}`);
    return [assign(`(SELECT ${src} FROM src)`)];
  });
}

/**
 * A status step in one statement, derived from the command's row of the transition table: the ride
 * locked FOR UPDATE (NOWAIT when asked), the handler's source row beside it, the acting party judged by
 * the table's status and time rules, and only if they and the handler's condition allow it the status
 * with its stamp and `set`, the withdrawn bids (rules with withdrawsBids), the ride_events row, the
 * handler's `also` and the ride's view read back. Outside a transaction it is one round trip and
 * commits by itself; in one (hooks), it takes its part like any statement. Each statement is a
 * named prepared statement (queryPrepared): planned once per connection, not per call.
 */
@Injectable()
export class RideStepsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts a ride in `status` with its ride_events row and reads its view, in one statement;
   * refused when `unlessLive` and the passenger has a live ride, or when a unique index refused it
   * (the code is taken among non-final rides; the passenger's one live ride now). ON CONFLICT waits
   * for a concurrent insert to commit or roll back, so two parallel bookings cannot both pass.
   */
  async insert(ride: NewRide, status: RideStatus, unlessLive: boolean, manager?: EntityManager): Promise<InsertOutcome> {
    const columns = RIDE_RECORD_COLUMNS.join(', ');
    const rows: Array<Record<string, unknown>> = await queryPrepared<Record<string, unknown>>(
      manager ?? this.dataSource.manager,
      `WITH live AS (
         SELECT $4::boolean AND EXISTS (SELECT 1 FROM rides WHERE passenger_id = $3 AND status IN ${sqlStatusList(LIVE_STATUSES)}) AS live
       ), inserted AS (
         INSERT INTO rides (${columns}, expires_at)
         SELECT ${columns}, COALESCE(j.dispatch_at, now()) + make_interval(mins => $2::int)
           FROM json_populate_record(NULL::rides, $1::json) j WHERE NOT (SELECT live FROM live)
         ON CONFLICT DO NOTHING RETURNING *
       ), recorded AS (
         INSERT INTO ride_events (ride_id, from_status, to_status, actor_user_id, actor_role)
         SELECT id, NULL, status, passenger_id, 'passenger' FROM inserted
       )
       SELECT (SELECT live FROM live) AS live, r.id IS NOT NULL AS inserted, ${RIDE_VIEW_COLUMNS}
         FROM (SELECT 1) one LEFT JOIN inserted r ON true ${RIDE_VIEW_JOINS}`,
      [JSON.stringify(rideRecord(ride, status)), ride.ttlMinutes, ride.passengerId, unlessLive],
    );
    const row = rows[0]!;
    return { live: row.live as boolean, view: row.inserted ? (row as unknown as RideViewRow) : undefined };
  }

  /**
   * An act on a ride that changes no ride (a chat message, a bid), in one statement: the ride locked
   * (`lock`) as `l` with the actor's `party`, then the caller's CTEs (`ctes` returns their
   * definitions, the last named `act`), which must write only where `allowed` (SQL over `l`) holds;
   * `param` adds a parameter. The caller judges the locked ride by the same rule; `acted` is act's
   * first row, if any.
   */
  async actOnLocked<T>(
    rideId: string,
    actor: StepActor,
    lock: 'share' | 'update',
    allowed: string,
    ctes: (allowed: string, param: (value: unknown) => string) => string,
    manager?: EntityManager,
  ): Promise<{ locked?: LockedRide; acted?: T }> {
    const params: unknown[] = [rideId, actor.id];
    const defined = ctes(allowed, (value) => `$${params.push(value)}`);
    const rows = await queryPrepared<Record<string, unknown>>(
      manager ?? this.dataSource.manager,
      `WITH l AS (${lockedRow(lock, actor)}), ${defined}
       SELECT ${lockedColumns('l', LOCKED_PREFIX)}, EXISTS (SELECT 1 FROM act) AS acted, act.* FROM l LEFT JOIN act ON true`,
      params,
    );
    const row = rows[0];
    if (!row) return {};
    return { locked: lockedOf(row, LOCKED_PREFIX), acted: row.acted ? (row as T) : undefined };
  }

  async step(type: RideCommandType, rideId: string, actor: StepActor, change: StepChange, manager?: EntityManager): Promise<StepOutcome> {
    const rule = ruleOf(type);
    if (!rule.to) throw new Error(`${type} changes no status`);
    const params: unknown[] = [rideId, actor.id, rule.to, change.reason];
    const param = (value: unknown): string => `$${params.push(value)}`;
    const source = change.source ? `, src AS (${change.source(param)})` : '';
    const where = change.where ? `(${change.where(param)})` : 'true';
    const sets = ['status = $3', 'updated_at = now()', ...(rule.stamp ? [`${rule.stamp} = now()`] : []), ...assignments(change.set, param)];
    const withdrawn = rule.withdrawsBids
      ? `, withdrawn AS (UPDATE bids SET status = 'withdrawn', updated_at = now()
           WHERE ride_id IN (SELECT id FROM changed) AND status = 'pending' RETURNING driver_id)`
      : '';
    const also = change.also ? `, also AS (${change.also(param)})` : '';
    const rows: Array<Record<string, unknown>> = await queryPrepared<Record<string, unknown>>(
      manager ?? this.dataSource.manager,
      `WITH l AS (${lockedRow('update', actor, change.nowait)})${source}, changed AS (
         UPDATE rides SET ${sets.join(', ')} FROM l WHERE rides.id = l.id AND ${sqlPartyAllowing(type, 'l')} AND ${where} RETURNING rides.*
       )${withdrawn}, recorded AS (
         INSERT INTO ride_events (ride_id, from_status, to_status, actor_user_id, actor_role, reason)
         SELECT c.id, l.status, c.status, $2::int, l.party, $4 FROM changed c JOIN l ON l.id = c.id
       )${also}
       SELECT ${lockedColumns('l', LOCKED_PREFIX)}, ${rule.withdrawsBids ? 'ARRAY(SELECT driver_id FROM withdrawn)' : "'{}'::int[]"} AS withdrawn_bidders,
              r.id IS NOT NULL AS changed, ${where} AS only_where,
              ${also ? "coalesce((SELECT json_agg(a) FROM also a), '[]')" : "'[]'::json"} AS also_rows, ${RIDE_VIEW_COLUMNS}
         FROM l LEFT JOIN changed r ON r.id = l.id ${RIDE_VIEW_JOINS}`,
      params,
    );
    const row = rows[0];
    if (!row) return { withdrawnBidders: [], also: [], onlyWhere: false };
    return {
      locked: lockedOf(row, LOCKED_PREFIX),
      view: row.changed ? (row as unknown as RideViewRow) : undefined,
      withdrawnBidders: row.withdrawn_bidders as number[],
      also: row.also_rows as Array<Record<string, unknown>>,
      onlyWhere: row.only_where as boolean,
    };
  }
}
