import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CommonError } from '../../../common/errors/common.errors';
import type { PromoOutcome } from '../fare-estimate';
import type { PromoRule } from '../fares/fare-calculator';
import { PromoCodeRow, PromoCodesRepository } from './promo-codes.repository';

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

/** Promo codes: whether one applies now (and why not), counting uses at booking, creating them (operator CLI). */
@Injectable()
export class PromoCodesService {
  constructor(private readonly promos: PromoCodesRepository) {}

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

  async createPromoCode(input: CreatePromoCodeInput): Promise<PromoCodeRow> {
    const code = normalisePromoCode(String(input.code ?? ''));
    if (!CODE.test(code)) throw CommonError.validation('code', 'code must be 3 to 40 letters, digits, - or _');
    if (input.discountType !== 'percentage' && input.discountType !== 'fixed') {
      throw CommonError.validation('discount_type', 'discount_type must be percentage or fixed');
    }
    const value = input.discountValue;
    if (!Number.isSafeInteger(value) || value <= 0 || (input.discountType === 'percentage' && value > 100)) {
      throw CommonError.validation(
        'discount_value',
        input.discountType === 'percentage' ? 'discount_value must be a whole percent from 1 to 100' : 'discount_value must be a positive amount in minor units',
      );
    }
    const cap = input.maxDiscountMinor ?? null;
    if (cap !== null && (!Number.isSafeInteger(cap) || cap <= 0)) {
      throw CommonError.validation('max_discount', 'max_discount must be a positive amount in minor units');
    }
    const limit = input.usageLimit ?? null;
    if (limit !== null && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw CommonError.validation('usage_limit', 'usage_limit must be a whole number of 0 or more');
    }
    const from = input.validFrom ?? null;
    const until = input.validUntil ?? null;
    for (const [field, date] of [['valid_from', from], ['valid_until', until]] as const) {
      if (date !== null && Number.isNaN(date.getTime())) throw CommonError.validation(field, `${field} must be a valid date`);
    }
    if (from && until && until <= from) throw CommonError.validation('valid_until', 'valid_until must be after valid_from');
    const row = await this.promos.insert({
      code,
      description: (input.description ?? '').slice(0, 300),
      discountType: input.discountType,
      discountValue: value,
      maxDiscountMinor: cap,
      validFrom: from,
      validUntil: until,
      usageLimit: limit,
    });
    if (!row) throw new CommonError('CONFLICT', `Promo code ${code} already exists`);
    return row;
  }
}
