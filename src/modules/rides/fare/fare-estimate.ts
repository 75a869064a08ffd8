import { toMajor } from '../../../common/money';

export type RideType = 'one_way' | 'round_trip' | 'per_hour' | 'delivery';
export const RIDE_TYPES: readonly RideType[] = ['one_way', 'round_trip', 'per_hour', 'delivery'];

export interface PromoOutcome {
  code: string;
  applied: boolean;
  /** Why the code did not apply (null when it did). */
  reason: string | null;
  discountMinor: number;
  /** Internal: the promo row, to count a use at booking. */
  promoId?: number;
}

/** One computed fare, in integer minor units. Stored as-is in rides.estimate (jsonb). */
export interface FareEstimate {
  vehicleCategoryId: number;
  rideType: RideType;
  distanceKm: number;
  durationMinutes: number;
  baseMinor: number;
  distanceMinor: number;
  timeMinor: number;
  subtotalMinor: number;
  minimumFareMinor: number;
  minimumFareApplied: boolean;
  discountMinor: number;
  totalMinor: number;
  promo: PromoOutcome | null;
}

/** The estimate as clients see it (EstimateResponseDto): money in major units with 2 decimals. */
export type EstimateView = {
  vehicle_category_id: number;
  ride_type: RideType;
  distance_km: number;
  duration_minutes: number;
  currency: string;
  breakdown: {
    base: number;
    distance: number;
    time: number;
    subtotal: number;
    minimum_fare: number;
    minimum_fare_applied: boolean;
    discount: number;
    total: number;
  };
  promo: { code: string; applied: boolean; reason: string | null; discount: number } | null;
};

export function estimateToJson(e: FareEstimate, currency: string): EstimateView {
  return {
    vehicle_category_id: e.vehicleCategoryId,
    ride_type: e.rideType,
    distance_km: e.distanceKm,
    duration_minutes: e.durationMinutes,
    currency,
    breakdown: {
      base: toMajor(e.baseMinor),
      distance: toMajor(e.distanceMinor),
      time: toMajor(e.timeMinor),
      subtotal: toMajor(e.subtotalMinor),
      minimum_fare: toMajor(e.minimumFareMinor),
      minimum_fare_applied: e.minimumFareApplied,
      discount: toMajor(e.discountMinor),
      total: toMajor(e.totalMinor),
    },
    promo: e.promo
      ? { code: e.promo.code, applied: e.promo.applied, reason: e.promo.reason, discount: toMajor(e.promo.discountMinor) }
      : null,
  };
}
