import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CommonError } from '../../common/errors/common.errors';
import type { PromoOutcome } from './fare/fare-estimate';
import type { PromoRule } from './fare/fare-calculator';
import { PromoCodeRow, PromoCodesRepository } from './repositories/promo-codes.repository';

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

export function normalisePromoCode(code: string): string {
  return code.trim().toUpperCase();
}

/** Promo codes: whether one applies now (and why not), counting uses at booking, creating them (operator CLI). */
@Injectable()
export class PromoCodesService {
  constructor(private readonly promos: PromoCodesRepository) {}

  /** The rule to apply, or the refusal with its reason (an estimate never fails because of a promo). */
  async evaluate(rawCode: string, now = new Date()): Promise<PromoRule | PromoOutcome> {
    const code = normalisePromoCode(rawCode);
    const refuse = (reason: string): PromoOutcome => ({ code, applied: false, reason, discountMinor: 0 });
    const row = code.length > 40 ? undefined : await this.promos.findByCode(code);
    if (!row) return refuse('Promo code not found');
    if (!row.is_active) return refuse('Promo code is no longer active');
    if (row.valid_from && new Date(row.valid_from) > now) return refuse('Promo code is not valid yet');
    if (row.valid_until && new Date(row.valid_until) <= now) return refuse('Promo code has expired');
    if (row.usage_limit !== null && row.used_count >= row.usage_limit) return refuse('Promo code usage limit reached');
    return {
      id: row.id,
      code: row.code,
      discountType: row.discount_type,
      discountValue: row.discount_value,
      maxDiscountMinor: row.max_discount_minor,
    };
  }

  /** Counts a use inside the booking transaction; false if the code stopped applying meanwhile. */
  redeem(promoId: number, manager: EntityManager): Promise<boolean> {
    return this.promos.redeem(promoId, manager);
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
