import { Injectable, PipeTransform } from '@nestjs/common';
import { isNumber, max, min } from 'class-validator';
import { isLatitudeNumber, isLongitudeNumber } from '../../../common/http/fast-validation';
import { createValidationPipe } from '../../../common/http/validation.pipe';
import { NearbyRidesQueryDto } from './nearby-rides-query.dto';

const FINITE = { allowNaN: false, allowInfinity: false };
/** A plain decimal: Number() reads it exactly as class-transformer's @Type(() => Number) does. */
const DECIMAL = /^[+-]?\d{1,3}(\.\d{1,15})?$/;

/** Each field's rule, from class-validator's own predicates: the decorators of NearbyRidesQueryDto. */
export const NEARBY_QUERY_RULES: Record<keyof NearbyRidesQueryDto, (n: number) => boolean> = {
  latitude: (n) => isNumber(n, FINITE) && isLatitudeNumber(n),
  longitude: (n) => isNumber(n, FINITE) && isLongitudeNumber(n),
  radius_km: (n) => isNumber(n, FINITE) && min(n, 0.1) && max(n, 50),
};

/**
 * GET /driver/rides/nearby's query, validated as NearbyRidesQueryDto. The route's parameter is
 * typed so that the global ValidationPipe leaves it to this pipe, which accepts a query of plain
 * decimals that pass the DTO's rules without class-transformer and class-validator's per-request
 * machinery (a third of this hot route's time); any other query goes through the full validation
 * pipe, so errors, messages and details are exactly the usual ones.
 */
@Injectable()
export class NearbyRidesQueryPipe implements PipeTransform<unknown, NearbyRidesQueryDto | Promise<NearbyRidesQueryDto>> {
  private readonly full = createValidationPipe();

  /** Not async: an accepted query needs no promise (Nest awaits whatever a pipe returns). */
  transform(query: unknown): NearbyRidesQueryDto | Promise<NearbyRidesQueryDto> {
    return fastNearbyRidesQuery(query) ?? (Promise.resolve(this.full.transform(query ?? {}, { type: 'query', metatype: NearbyRidesQueryDto })) as Promise<NearbyRidesQueryDto>);
  }
}

/** The DTO for a query that certainly passes validation; undefined means "use the full pipe". */
export function fastNearbyRidesQuery(query: unknown): NearbyRidesQueryDto | undefined {
  if (typeof query !== 'object' || query === null) return undefined;
  const dto = new NearbyRidesQueryDto();
  for (const key in query) {
    if (!Object.hasOwn(NEARBY_QUERY_RULES, key)) return undefined;
    const raw = (query as Record<string, unknown>)[key];
    if (typeof raw !== 'string' || !DECIMAL.test(raw)) return undefined;
    const n = Number(raw);
    if (!NEARBY_QUERY_RULES[key as keyof NearbyRidesQueryDto](n)) return undefined;
    dto[key as keyof NearbyRidesQueryDto] = n;
  }
  return dto;
}
