import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

export interface AuditRow {
  id: string;
  actor_id: number | null;
  action: string;
  target_type: string;
  target_id: string;
  reason: string;
  details: Record<string, unknown>;
  created_at: Date;
}

export interface NewAuditRow {
  actorId: number | null;
  action: string;
  targetType: string;
  targetId: string;
  reason: string;
  details: Record<string, unknown>;
}

export interface AuditFilter {
  targetId?: string;
  actorId?: number;
}

const COLUMNS = 'id, actor_id, action, target_type, target_id, reason, details, created_at';

@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Always inside the caller's transaction: the entry commits or rolls back with the change it records. */
  async insert(row: NewAuditRow, manager: EntityManager): Promise<void> {
    await manager.query(`INSERT INTO audit_log (actor_id, action, target_type, target_id, reason, details) VALUES ($1, $2, $3, $4, $5, $6::jsonb)`, [
      row.actorId,
      row.action,
      row.targetType,
      row.targetId,
      row.reason,
      JSON.stringify(row.details),
    ]);
  }

  /** Newest first; one index (target or actor) serves each filter. */
  async findPage(filter: AuditFilter, offset: number, limit: number): Promise<{ rows: AuditRow[]; total: number }> {
    const where = `($1::varchar IS NULL OR target_id = $1) AND ($2::int IS NULL OR actor_id = $2)`;
    const params = [filter.targetId ?? null, filter.actorId ?? null];
    const [rows, count] = await Promise.all([
      this.dataSource.query(`SELECT ${COLUMNS} FROM audit_log WHERE ${where} ORDER BY id DESC LIMIT $3 OFFSET $4`, [...params, limit, offset]) as Promise<
        AuditRow[]
      >,
      this.dataSource.query(`SELECT count(*)::int AS total FROM audit_log WHERE ${where}`, params) as Promise<Array<{ total: number }>>,
    ]);
    return { rows, total: count[0]?.total ?? 0 };
  }
}
