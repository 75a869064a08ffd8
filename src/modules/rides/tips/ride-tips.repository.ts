import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { rowsOf } from '../../../common/database/sql-results';
import type { TipTransferPart } from '../../wallets/wallets.service';
import { RIDE_VIEW_COLUMNS, RIDE_VIEW_JOINS } from '../read-models/ride-view';
import type { RideStatus } from '../ride-status';

/** A ride as a tip's charge outside the lock judges it (a card ride's tip is charged before the statement). */
export interface TipChargeState {
  payment_method: 'cash' | 'wallet' | 'card';
  status: RideStatus;
  passenger_id: number | null;
  driver_id: number | null;
  tipped: boolean;
  in_window: boolean;
}

/** What the tip statement's `act` row carries beside the wallet transfer's row and, once tipped, the ride's view and tipped_at. */
export interface TipActed {
  already_tipped: boolean;
  in_window: boolean;
}

/** Tips on the rides row (tip_minor, tipped_at; CONTRACT §11). */
@Injectable()
export class RideTipsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The ride's payment method, parties and tip state, read without a lock: undefined when there is no such ride. */
  async chargeState(rideId: string, windowHours: number): Promise<TipChargeState | undefined> {
    const rows = rowsOf<TipChargeState>(
      await this.dataSource.query(
        `SELECT payment_method, status, passenger_id, driver_id, tip_minor IS NOT NULL AS tipped,
                coalesce(completed_at > now() - make_interval(hours => $2), false) AS in_window
           FROM rides WHERE id = $1`,
        [rideId, windowHours],
      ),
    );
    return rows[0];
  }

  /**
   * The tip's CTEs of the command's one statement over the locked ride `l` (RideStepsRepository.actOnLocked):
   * where `allowed` holds, the ride not yet tipped, its completion within `windowHours` and both its
   * parties still there, the money moves (a cash or wallet ride: `transfer`, the wallets module's part,
   * wallet to wallet; a card ride: charged before the statement, `charged`) and only then the tip is
   * written on the ride, all or nothing; `act` (TipActed) reports each judgement, for the refusal.
   */
  tipWhere(
    tip: { amountMinor: number; windowHours: number; charged: boolean },
    transfer: (part: TipTransferPart) => string,
    allowed: string,
    param: (value: unknown) => string,
  ): string {
    const money = transfer({
      when: '(SELECT ok AND NOT card FROM tip_rule)',
      rideId: '(SELECT id FROM l)',
      passengerId: '(SELECT passenger_id FROM l)',
      driverId: '(SELECT driver_id FROM l)',
      amountMinor: tip.amountMinor,
    });
    return `tip_rule AS (
        SELECT s.tipped, s.in_window, s.card, (${allowed}) AND NOT s.tipped AND s.in_window AND l.driver_id IS NOT NULL AND l.passenger_id IS NOT NULL AS ok
          FROM l, LATERAL (SELECT l.tip_minor IS NOT NULL AS tipped, l.payment_method = 'card' AS card,
                                  coalesce(l.completed_at > now() - make_interval(hours => ${param(tip.windowHours)}::int), false) AS in_window) s),
      ${money},
      tip_recorded AS (
        UPDATE rides SET tip_minor = ${param(tip.amountMinor)}::bigint, tipped_at = now(), updated_at = now()
          FROM l, tip_rule t, tip_transfer p
         WHERE rides.id = l.id AND t.ok AND CASE WHEN t.card THEN ${param(tip.charged)}::boolean ELSE p.tip_paid END
        RETURNING rides.*),
      act AS (
        SELECT t.tipped AS already_tipped, t.in_window, p.*, v.*
          FROM tip_rule t CROSS JOIN tip_transfer p
          LEFT JOIN (SELECT r.tipped_at, ${RIDE_VIEW_COLUMNS} FROM tip_recorded r ${RIDE_VIEW_JOINS}) v ON true)`;
  }
}
