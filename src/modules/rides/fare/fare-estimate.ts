import { compileJsonShape, ObjectSpec } from '../../../common/database/json-shape';

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

/** EstimateView over a row holding the stored estimate (jsonb) and the currency; rides embed it too. */
export const ESTIMATE_SHAPE: ObjectSpec<EstimateView, { estimate: FareEstimate; currency: string }> = {
  fields: {
    vehicle_category_id: { from: ['estimate', 'vehicleCategoryId'] },
    ride_type: { from: ['estimate', 'rideType'] },
    distance_km: { from: ['estimate', 'distanceKm'] },
    duration_minutes: { from: ['estimate', 'durationMinutes'] },
    currency: { from: ['currency'], as: 'trim' },
    breakdown: {
      fields: {
        base: { from: ['estimate', 'baseMinor'], as: 'major' },
        distance: { from: ['estimate', 'distanceMinor'], as: 'major' },
        time: { from: ['estimate', 'timeMinor'], as: 'major' },
        subtotal: { from: ['estimate', 'subtotalMinor'], as: 'major' },
        minimum_fare: { from: ['estimate', 'minimumFareMinor'], as: 'major' },
        minimum_fare_applied: { from: ['estimate', 'minimumFareApplied'] },
        discount: { from: ['estimate', 'discountMinor'], as: 'major' },
        total: { from: ['estimate', 'totalMinor'], as: 'major' },
      },
    },
    promo: {
      nullIf: [['estimate', 'promo']],
      fields: {
        code: { from: ['estimate', 'promo', 'code'] },
        applied: { from: ['estimate', 'promo', 'applied'] },
        reason: { from: ['estimate', 'promo', 'reason'] },
        discount: { from: ['estimate', 'promo', 'discountMinor'], as: 'major' },
      },
    },
  },
};

const estimateJson = compileJsonShape(ESTIMATE_SHAPE);

export function estimateToJson(estimate: FareEstimate, currency: string): EstimateView {
  return estimateJson({ estimate, currency });
}
