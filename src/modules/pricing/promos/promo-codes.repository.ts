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
  async insert(p: NewPromoCode): Promise<PromoCodeRow | undefined> {
    const rows: PromoCodeRow[] = await this.dataSource.query(
      `INSERT INTO promo_codes (code, description, discount_type, discount_value, max_discount_minor, valid_from, valid_until, usage_limit)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (code) DO NOTHING RETURNING ${COLUMNS}`,
      [p.code, p.description, p.discountType, p.discountValue, p.maxDiscountMinor, p.validFrom, p.validUntil, p.usageLimit],
    );
    return rows[0];
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
