import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../../common/database/sql-results';
import type { SosRaiser, SosStatus } from './dto/sos.dto';

export interface SosRow {
  id: string;
  ride_id: string;
  raised_by: SosRaiser;
  raised_by_user_id: number;
  source: 'button' | 'ride_check';
  status: SosStatus;
  latitude: number | null;
  longitude: number | null;
  created_at: Date;
  resolved_at: Date | null;
  resolved_by: number | null;
  resolution_reason: string | null;
}

export interface SosTextRow {
  id: string;
  sos_id: string;
  contact_name: string;
  phone: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
}

export interface NewSos {
  rideId: string;
  raisedBy: SosRaiser;
  userId: number;
  source: 'button' | 'ride_check';
  latitude: number | null;
  longitude: number | null;
  contacts: ReadonlyArray<{ name: string; phone: string }>;
}

const SOS_COLUMNS = `id, ride_id, raised_by, raised_by_user_id, source, status, latitude, longitude, created_at, resolved_at, resolved_by, resolution_reason`;
const TEXT_COLUMNS = `id, sos_id, contact_name, phone, status, attempts, last_error, sent_at`;

/** sos_alerts and sos_texts: an alert is stored with its texts before any is sent. */
@Injectable()
export class SosAlertsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The alert and one pending text per contact, in one transaction; undefined when the ride already has an open alert. */
  insertWithTexts(sos: NewSos): Promise<SosRow | undefined> {
    return this.runInTransaction(async (tx) => {
      const rows: SosRow[] = await tx.query(
        `INSERT INTO sos_alerts (ride_id, raised_by, raised_by_user_id, source, latitude, longitude)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (ride_id) WHERE status = 'open' DO NOTHING
         RETURNING ${SOS_COLUMNS}`,
        [sos.rideId, sos.raisedBy, sos.userId, sos.source, sos.latitude, sos.longitude],
      );
      const row = rows[0];
      if (!row || sos.contacts.length === 0) return row;
      await tx.query(
        `INSERT INTO sos_texts (sos_id, contact_name, phone)
         SELECT $1, c.name, c.phone FROM jsonb_to_recordset($2::jsonb) AS c(name text, phone text)`,
        [row.id, JSON.stringify(sos.contacts)],
      );
      return row;
    });
  }

  async findOpenOfRide(rideId: string): Promise<SosRow | undefined> {
    const rows: SosRow[] = await this.m().query(`SELECT ${SOS_COLUMNS} FROM sos_alerts WHERE ride_id = $1 AND status = 'open'`, [rideId]);
    return rows[0];
  }

  async findPage(status: SosStatus | undefined, offset: number, limit: number): Promise<{ rows: SosRow[]; total: number }> {
    const where = status ? `WHERE status = $1` : `WHERE $1::text IS NULL`;
    const [rows, count] = await Promise.all([
      this.m().query(`SELECT ${SOS_COLUMNS} FROM sos_alerts ${where} ORDER BY id DESC LIMIT $2 OFFSET $3`, [status ?? null, limit, offset]),
      this.m().query(`SELECT count(*)::int AS total FROM sos_alerts ${where}`, [status ?? null]),
    ]);
    return { rows, total: count[0].total };
  }

  async findTextsOf(sosIds: readonly string[]): Promise<SosTextRow[]> {
    if (sosIds.length === 0) return [];
    return this.m().query(`SELECT ${TEXT_COLUMNS} FROM sos_texts WHERE sos_id = ANY($1::bigint[]) ORDER BY id`, [sosIds]);
  }

  async lock(id: number, manager: EntityManager): Promise<SosRow | undefined> {
    const rows: SosRow[] = await manager.query(`SELECT ${SOS_COLUMNS} FROM sos_alerts WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0];
  }

  async resolve(id: number, operatorId: number, reason: string, manager: EntityManager): Promise<SosRow> {
    const rows = rowsOf<SosRow>(
      await manager.query(
        `UPDATE sos_alerts SET status = 'resolved', resolved_at = now(), resolved_by = $2, resolution_reason = $3 WHERE id = $1 RETURNING ${SOS_COLUMNS}`,
        [id, operatorId, reason],
      ),
    );
    return rows[0]!;
  }

  /**
   * Pending texts whose time has come, claimed for one attempt (their next try pushed back by
   * `leaseSeconds`, so another instance's sweep leaves them alone meanwhile); with the alert's ride and raiser.
   */
  async claimDue(limit: number, leaseSeconds: number, sosId?: string): Promise<Array<SosTextRow & { ride_id: string; raised_by_user_id: number }>> {
    const rows = await this.m().query(
      `UPDATE sos_texts t SET attempts = t.attempts + 1, next_attempt_at = now() + make_interval(secs => $2::int)
        FROM sos_alerts a
       WHERE a.id = t.sos_id AND t.id IN (
             SELECT id FROM sos_texts WHERE status = 'pending' AND next_attempt_at <= now() AND ($3::bigint IS NULL OR sos_id = $3)
              ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING t.id, t.sos_id, t.contact_name, t.phone, t.status, t.attempts, t.last_error, t.sent_at, a.ride_id, a.raised_by_user_id`,
      [limit, leaseSeconds, sosId ?? null],
    );
    return rowsOf(rows);
  }

  async markSent(textId: string): Promise<void> {
    await this.m().query(`UPDATE sos_texts SET status = 'sent', sent_at = now(), last_error = NULL WHERE id = $1`, [textId]);
  }

  /** A failed try: tried again after `retryInSeconds`, or given up (`failed`) when null. */
  async markFailed(textId: string, error: string, retryInSeconds: number | null): Promise<void> {
    await this.m().query(
      `UPDATE sos_texts SET last_error = left($2, 500),
              status = CASE WHEN $3::int IS NULL THEN 'failed' ELSE status END,
              next_attempt_at = CASE WHEN $3::int IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $3::int) END
        WHERE id = $1`,
      [textId, error, retryInSeconds],
    );
  }
}
