import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CommonError } from '../../../common/errors/common.errors';
import { toMajor, toMinor } from '../../../common/money';
import { AppConfig } from '../../../config/app-config';
import { AuditedBy, AuditService } from '../../audit/audit.service';
import type { CreatePromoCodeDto, PromoCodePageResponseDto, PromoCodeResponseDto } from './dto/promo-code.dto';
import type { PromoOutcome } from '../fare-estimate';
import type { PromoRule } from '../fares/fare-calculator';
import { PromoCodeChanges, PromoCodeRow, PromoCodesRepository } from './promo-codes.repository';

export interface CreatePromoCodeInput {
  code: string;
  discountType: 'percentage' | 'fixed';
  /** Percent (1..100) for percentage, minor units for fixed. */
  discountValue: number;
  maxDiscountMinor?: number | null;
  validFrom?: Date | null;
  validUntil?: Date | null;
  usageLimit?: number | null;
  description?: string;
}

const CODE = /^[A-Z0-9_-]{3,40}$/;

/** Why a promo code does not apply now, on the database's clock; null when it does. */
function refusalOf(row: PromoCodeRow | undefined): string | null {
  if (!row) return 'Promo code not found';
  if (!row.is_active) return 'Promo code is no longer active';
  if (!row.has_started) return 'Promo code is not valid yet';
  if (row.has_expired) return 'Promo code has expired';
  if (row.usage_limit !== null && row.used_count >= row.usage_limit) return 'Promo code usage limit reached';
  return null;
}

export function normalisePromoCode(code: string): string {
  return code.trim().toUpperCase();
}

function iso(date: Date | null): string | null {
  return date === null ? null : new Date(date).toISOString();
}

/**
 * Promo codes: whether one applies now (and why not), counting uses at booking; operators (the API
 * and the CLI) create, list and change them, each write audited in its own transaction.
 */
@Injectable()
export class PromoCodesService {
  constructor(
    private readonly promos: PromoCodesRepository,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {}

  /** The rule to apply, or the refusal with its reason (an estimate never fails because of a promo). */
  async evaluate(rawCode: string): Promise<PromoRule | PromoOutcome> {
    const code = normalisePromoCode(rawCode);
    const row = code.length > 40 ? undefined : await this.promos.findByCode(code);
    const reason = refusalOf(row);
    if (reason !== null || !row) return { code, applied: false, reason: reason ?? 'Promo code not found', discountMinor: 0 };
    return {
      id: row.id,
      code: row.code,
      discountType: row.discount_type,
      discountValue: row.discount_value,
      maxDiscountMinor: row.max_discount_minor,
    };
  }

  /**
   * Counts a use inside the booking transaction: null when counted, else why the code stopped
   * applying since the estimate (the same checks, on the same database clock, as evaluate()).
   */
  async redeem(promoId: number, manager: EntityManager): Promise<string | null> {
    if (await this.promos.redeem(promoId, manager)) return null;
    return refusalOf(await this.promos.findById(promoId, manager)) ?? 'Promo code is no longer available';
  }

  async createPromoCode(input: CreatePromoCodeInput, by: AuditedBy): Promise<PromoCodeRow> {
    const code = normalisePromoCode(String(input.code ?? ''));
    if (!CODE.test(code)) throw CommonError.validation('code', 'code must be 3 to 40 letters, digits, - or _');
    if (input.discountType !== 'percentage' && input.discountType !== 'fixed') {
      throw CommonError.validation('discount_type', 'discount_type must be percentage or fixed');
    }
    const value = input.discountValue;
    if (!Number.isSafeInteger(value) || value <= 0 || (input.discountType === 'percentage' && value > 100)) {
      throw CommonError.validation(
        'discount_value',
        input.discountType === 'percentage' ? 'discount_value must be a whole percent from 1 to 100' : 'discount_value must be a positive amount',
      );
    }
    const cap = input.maxDiscountMinor ?? null;
    if (cap !== null && (!Number.isSafeInteger(cap) || cap <= 0)) {
      throw CommonError.validation('max_discount', 'max_discount must be a positive amount');
    }
    const limit = input.usageLimit ?? null;
    if (limit !== null && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw CommonError.validation('usage_limit', 'usage_limit must be a whole number of 0 or more');
    }
    const from = input.validFrom ?? null;
    const until = input.validUntil ?? null;
    for (const [field, date] of [
      ['valid_from', from],
      ['valid_until', until],
    ] as const) {
      if (date !== null && Number.isNaN(date.getTime())) throw CommonError.validation(field, `${field} must be a valid date`);
    }
    if (from && until && until <= from) throw CommonError.validation('valid_until', 'valid_until must be after valid_from');
    const row = await this.promos.runInTransaction(async (manager) => {
      const created = await this.promos.insert(
        {
          code,
          description: (input.description ?? '').slice(0, 300),
          discountType: input.discountType,
          discountValue: value,
          maxDiscountMinor: cap,
          validFrom: from,
          validUntil: until,
          usageLimit: limit,
        },
        manager,
      );
      if (!created) throw new CommonError('CONFLICT', `Promo code ${code} already exists`);
      await this.audit.record({ ...by, action: 'promo_codes.create', targetType: 'promo_code', targetId: code, details: { ...this.toJson(created) } }, manager);
      return created;
    });
    return row;
  }

  /** POST /admin/promo-codes: money in major units (at most 2 decimals), times in ISO 8601. */
  async create(body: CreatePromoCodeDto, by: AuditedBy): Promise<PromoCodeResponseDto> {
    const minor = (field: string, amount: number): number => {
      const value = toMinor(amount);
      if (value === undefined) throw CommonError.validation(field, `${field} must have at most 2 decimal places`);
      return value;
    };
    const date = (value: string | null | undefined) => (value === null || value === undefined ? null : new Date(value));
    const row = await this.createPromoCode(
      {
        code: body.code,
        discountType: body.discount_type,
        discountValue: body.discount_type === 'fixed' ? minor('discount_value', body.discount_value) : body.discount_value,
        maxDiscountMinor: body.max_discount === null || body.max_discount === undefined ? null : minor('max_discount', body.max_discount),
        validFrom: date(body.valid_from),
        validUntil: date(body.valid_until),
        usageLimit: body.max_uses ?? null,
        description: body.description,
      },
      by,
    );
    return this.toJson(row);
  }

  /** GET /admin/promo-codes: newest first. */
  async list(page: number, limit: number): Promise<PromoCodePageResponseDto> {
    const { rows, total } = await this.promos.findPage((page - 1) * limit, limit);
    return { items: rows.map((row) => this.toJson(row)), page, limit, total };
  }

  /** PATCH /admin/promo-codes/{code}: an inactive code stops applying to the next estimate and booking. */
  async update(rawCode: string, changes: PromoCodeChanges, by: AuditedBy): Promise<PromoCodeResponseDto> {
    const code = normalisePromoCode(rawCode);
    if (changes.isActive === undefined && changes.usageLimit === undefined && changes.validUntil === undefined) {
      throw CommonError.validation('active', 'Give at least one of active, max_uses or valid_until');
    }
    return this.promos.runInTransaction(async (manager) => {
      const before = code.length > 40 ? undefined : await this.promos.lockByCode(code, manager);
      if (!before) throw new CommonError('NOT_FOUND', 'Promo code not found');
      const until = changes.validUntil;
      if (until && before.valid_from && until <= new Date(before.valid_from)) {
        throw CommonError.validation('valid_until', 'valid_until must be after valid_from');
      }
      const after = this.toJson(await this.promos.update(before.id, changes, manager));
      const old = this.toJson(before);
      const changed = (['active', 'max_uses', 'valid_until'] as const).filter((field) => old[field] !== after[field]);
      const details = { before: Object.fromEntries(changed.map((f) => [f, old[f]])), after: Object.fromEntries(changed.map((f) => [f, after[f]])) };
      await this.audit.record({ ...by, action: 'promo_codes.update', targetType: 'promo_code', targetId: code, details }, manager);
      return after;
    });
  }

  /** A code as the API shows it: amounts in major units. */
  toJson(row: PromoCodeRow): PromoCodeResponseDto {
    return {
      id: row.id,
      code: row.code,
      description: row.description,
      discount_type: row.discount_type,
      discount_value: row.discount_type === 'fixed' ? toMajor(row.discount_value) : row.discount_value,
      max_discount: row.max_discount_minor === null ? null : toMajor(row.max_discount_minor),
      currency: this.config.currency,
      valid_from: iso(row.valid_from),
      valid_until: iso(row.valid_until),
      max_uses: row.usage_limit,
      used_count: row.used_count,
      active: row.is_active,
      created_at: iso(row.created_at)!,
    };
  }
}
