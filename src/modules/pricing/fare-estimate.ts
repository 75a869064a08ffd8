import { compileJsonShape } from '../../common/database/json-shape';
import { at, col, doc, group, nullable, shapeOf, ViewOfGroup } from '../../common/database/read-model';

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
  /** Applied to distanceMinor and timeMinor (already included in them); 1 when calm. */
  surgeMultiplier: number;
  subtotalMinor: number;
  minimumFareMinor: number;
  minimumFareApplied: boolean;
  discountMinor: number;
  totalMinor: number;
  promo: PromoOutcome | null;
}

/** A promo's outcome as clients see it (money in major units). */
const PROMO = group(
  'PromoResultDto',
  {
    code: doc(at.text('estimate', 'promo', 'code'), { example: 'WELCOME10' }),
    applied: doc(at.boolean('estimate', 'promo', 'applied'), { example: true }),
    reason: nullable(at.text('estimate', 'promo', 'reason'), { example: null, description: 'Why the code did not apply' }),
    discount: doc(at.money('estimate', 'promo', 'discountMinor'), { example: 2.04 }),
  },
  { nullIf: [['estimate', 'promo']] },
);

/**
 * The estimate as clients see it (EstimateResponseDto), over a row holding the stored estimate
 * (jsonb) and the currency: money in major units with 2 decimals. Rides embed it.
 */
export const ESTIMATE = group(
  'EstimateResponseDto',
  {
    vehicle_category_id: doc(at.number('estimate', 'vehicleCategoryId'), { example: 1 }),
    ride_type: doc(at.oneOf(RIDE_TYPES)('estimate', 'rideType'), { example: 'one_way' }),
    distance_km: doc(at.number('estimate', 'distanceKm'), { example: 10.5 }),
    duration_minutes: doc(at.number('estimate', 'durationMinutes'), { example: 21 }),
    currency: col.trimmed('r.currency', { example: 'USD' }),
    breakdown: group('FareBreakdownDto', {
      base: doc(at.money('estimate', 'baseMinor'), { example: 2.5 }),
      distance: doc(at.money('estimate', 'distanceMinor'), { example: 12.6 }),
      time: doc(at.money('estimate', 'timeMinor'), { example: 5.25 }),
      surge_multiplier: doc(at.hundredths('estimate', 'surgeMultiplier'), {
        example: 1,
        description: 'Demand against supply near the pickup (1.00 when calm), already applied to distance and time',
      }),
      subtotal: doc(at.money('estimate', 'subtotalMinor'), { example: 20.35 }),
      minimum_fare: doc(at.money('estimate', 'minimumFareMinor'), { example: 6 }),
      minimum_fare_applied: doc(at.boolean('estimate', 'minimumFareApplied'), { example: false }),
      discount: doc(at.money('estimate', 'discountMinor'), { example: 2.04 }),
      total: doc(at.money('estimate', 'totalMinor'), { example: 18.31 }),
    }),
    promo: PROMO,
  },
  { selects: [col.json<FareEstimate>()('r.estimate')] },
);

export type EstimateView = ViewOfGroup<typeof ESTIMATE>;
/** POST /rides/estimate without a category: one estimate per active category that fits. */
export interface EstimateListView {
  estimates: EstimateView[];
}

const estimateJson = compileJsonShape(shapeOf(ESTIMATE));

export function estimateToJson(estimate: FareEstimate, currency: string): EstimateView {
  return estimateJson({ estimate, currency });
}
