import { DomainError } from '../../common/errors/domain.error';

export type PricingErrorCode = 'CATEGORY_NOT_FOUND' | 'PROMO_NOT_FOUND';

export const PRICING_MESSAGES: Record<PricingErrorCode, string> = {
  CATEGORY_NOT_FOUND: 'Vehicle category not found',
  PROMO_NOT_FOUND: 'Promo code not found',
};

export class PricingError extends DomainError<PricingErrorCode> {
  constructor(code: PricingErrorCode, message: string = PRICING_MESSAGES[code], details?: ReadonlyArray<{ field: string; message: string }>) {
    super(code, message, details);
  }

  /** A refusal about one request field (rendered with details naming it). */
  static field(code: PricingErrorCode, field: string, message: string = PRICING_MESSAGES[code]): PricingError {
    return new PricingError(code, message, [{ field, message }]);
  }
}
