import { percentOf } from '../../../common/money';
import type { VehicleCategoryEntity } from '../entities/vehicle-category.entity';
import type { FareEstimate, PromoOutcome, RideType } from '../fare-estimate';
import type { RouteLeg } from './routing.provider';

export type FareCategory = Pick<VehicleCategoryEntity, 'id' | 'baseFareMinor' | 'perKmRateMinor' | 'perMinuteRateMinor' | 'minimumFareMinor'>;

export interface PromoRule {
  id: number;
  code: string;
  discountType: 'percentage' | 'fixed';
  /** Percent (1..100) or minor units. */
  discountValue: number;
  maxDiscountMinor: number | null;
}

export interface FareInput {
  category: FareCategory;
  rideType: RideType;
  /** one_way, delivery, per_hour: [outbound]; round_trip: [outbound, return]. */
  legs: RouteLeg[];
  /** per_hour only: the booked time, which is what is billed. */
  bookedMinutes?: number;
  /** The surge multiplier (2 decimals, ≥ 1) on the distance and time parts; 1 when absent. */
  surgeMultiplier?: number;
  /** A promo that passed its checks, or a refusal to report as-is. */
  promo?: PromoRule | PromoOutcome;
}

/**
 * The fare, all in integer minor units: base + (per-km × km + per-minute × minutes) × surge (per_hour
 * bills the booked time only), raised to the category's minimum fare, then the promo discount (which may
 * take the total below the minimum, never below zero).
 */
export function computeFare(input: FareInput): FareEstimate {
  const { category, rideType, legs } = input;
  const routeKm = Math.round(legs.reduce((sum, leg) => sum + leg.distanceKm, 0) * 100) / 100;
  const routeMinutes = legs.reduce((sum, leg) => sum + leg.durationMinutes, 0);
  const perHour = rideType === 'per_hour';
  const durationMinutes = perHour ? (input.bookedMinutes ?? 0) : routeMinutes;

  const baseMinor = category.baseFareMinor;
  // The multiplier carries 2 decimals: applied as a percent, so no float touches the money.
  const surgeMultiplier = Math.max(1, Math.round((input.surgeMultiplier ?? 1) * 100) / 100);
  const surgePercent = Math.round(surgeMultiplier * 100);
  // km carry 2 decimals: rate × (km × 100) / 100, rounded half up.
  const distanceMinor = perHour ? 0 : percentOf(percentOf(category.perKmRateMinor, Math.round(routeKm * 100)), surgePercent);
  const timeMinor = percentOf(category.perMinuteRateMinor * durationMinutes, surgePercent);
  const subtotalMinor = baseMinor + distanceMinor + timeMinor;
  const minimumFareApplied = subtotalMinor < category.minimumFareMinor;
  const fareMinor = minimumFareApplied ? category.minimumFareMinor : subtotalMinor;

  let promo: PromoOutcome | null = null;
  if (input.promo && 'discountType' in input.promo) {
    const rule = input.promo;
    let discount = rule.discountType === 'percentage' ? percentOf(fareMinor, rule.discountValue) : rule.discountValue;
    if (rule.maxDiscountMinor !== null) discount = Math.min(discount, rule.maxDiscountMinor);
    discount = Math.min(discount, fareMinor);
    promo = { code: rule.code, applied: true, reason: null, discountMinor: discount, promoId: rule.id };
  } else if (input.promo) {
    promo = input.promo;
  }
  const discountMinor = promo?.applied ? promo.discountMinor : 0;

  return {
    vehicleCategoryId: category.id,
    rideType,
    distanceKm: routeKm,
    durationMinutes,
    baseMinor,
    distanceMinor,
    timeMinor,
    surgeMultiplier,
    subtotalMinor,
    minimumFareMinor: category.minimumFareMinor,
    minimumFareApplied,
    discountMinor,
    totalMinor: fareMinor - discountMinor,
    promo,
  };
}
