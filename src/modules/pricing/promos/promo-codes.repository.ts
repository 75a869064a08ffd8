import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../../../common/database/sql-results';

export interface PromoCodeRow {
  id: number;
  code: string;
  description: string;
  discount_type: 'percentage' | 'fixed';
  discount_value: number;
  max_discount_minor: number | null;
  valid_from: Date | null;
  valid_until: Date | null;
  usage_limit: number | null;
  used_count: number;
  is_active: boolean;
  created_at: Date;
  /** Read on the database's clock, the same one redeem() checks against. */
  has_started: boolean;
  has_expired: boolean;
}

export interface NewPromoCode {
  code: string;
  description: string;
  discountType: 'percentage' | 'fixed';
  discountValue: number;
  maxDiscountMinor: number | null;
  validFrom: Date | null;
  validUntil: Date | null;
  usageLimit: number | null;
}

/** An operator's change of a code (PATCH): a field left undefined stays as it is; null clears it. */
export interface PromoCodeChanges {
  isActive?: boolean;
  usageLimit?: number | null;
  validUntil?: Date | null;
}

const COLUMNS = `id, code, description, discount_type, discount_value, max_discount_minor, valid_from, valid_until,
  usage_limit, used_count, is_active, created_at,
  (valid_from IS NULL OR valid_from <= now()) AS has_started, (valid_until IS NOT NULL AND valid_until <= now()) AS has_expired`;

@Injectable()
export class PromoCodesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findByCode(code: string): Promise<PromoCodeRow | undefined> {
    const rows: PromoCodeRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM promo_codes WHERE code = $1`, [code]);
    return rows[0];
  }

  async findById(id: number, manager: EntityManager): Promise<PromoCodeRow | undefined> {
    const rows: PromoCodeRow[] = await manager.query(`SELECT ${COLUMNS} FROM promo_codes WHERE id = $1`, [id]);
    return rows[0];
  }

  /** undefined when the code already exists. */
  async insert(p: NewPromoCode, manager: EntityManager): Promise<PromoCodeRow | undefined> {
    const rows: PromoCodeRow[] = await manager.query(
      `INSERT INTO promo_codes (code, description, discount_type, discount_value, max_discount_minor, valid_from, valid_until, usage_limit)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (code) DO NOTHING RETURNING ${COLUMNS}`,
      [p.code, p.description, p.discountType, p.discountValue, p.maxDiscountMinor, p.validFrom, p.validUntil, p.usageLimit],
    );
    return rows[0];
  }

  /** The code's row, locked until the transaction ends (two changes of one code queue). */
  async lockByCode(code: string, manager: EntityManager): Promise<PromoCodeRow | undefined> {
    const rows: PromoCodeRow[] = await manager.query(`SELECT ${COLUMNS} FROM promo_codes WHERE code = $1 FOR UPDATE`, [code]);
    return rows[0];
  }

  /** Writes the operator's changes (only the fields given); returns the row as it now is. */
  async update(id: number, changes: PromoCodeChanges, manager: EntityManager): Promise<PromoCodeRow> {
    const result: unknown = await manager.query(
      `UPDATE promo_codes SET
         is_active = CASE WHEN $2::boolean THEN $3::boolean ELSE is_active END,
         usage_limit = CASE WHEN $4::boolean THEN $5::int ELSE usage_limit END,
         valid_until = CASE WHEN $6::boolean THEN $7::timestamptz ELSE valid_until END
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [
        id,
        changes.isActive !== undefined,
        changes.isActive ?? null,
        changes.usageLimit !== undefined,
        changes.usageLimit ?? null,
        changes.validUntil !== undefined,
        changes.validUntil ?? null,
      ],
    );
    return rowsOf<PromoCodeRow>(result)[0]!;
  }

  /** Newest first. */
  async findPage(offset: number, limit: number): Promise<{ rows: PromoCodeRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.dataSource.query(`SELECT ${COLUMNS} FROM promo_codes ORDER BY id DESC LIMIT $1 OFFSET $2`, [limit, offset]) as Promise<PromoCodeRow[]>,
      this.dataSource.query(`SELECT count(*)::int AS total FROM promo_codes`) as Promise<Array<{ total: number }>>,
    ]);
    return { rows, total: count[0]?.total ?? 0 };
  }

  runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Counts one use if the code is still usable right now; false otherwise (checked and counted atomically). */
  async redeem(id: number, manager: EntityManager): Promise<boolean> {
    const rows = rowsOf<{ id: number }>(
      await manager.query(
        `UPDATE promo_codes SET used_count = used_count + 1
          WHERE id = $1 AND is_active
            AND (usage_limit IS NULL OR used_count < usage_limit)
            AND (valid_from IS NULL OR valid_from <= now())
            AND (valid_until IS NULL OR valid_until > now())
          RETURNING id`,
        [id],
      ),
    );
    return rows.length > 0;
  }
}
