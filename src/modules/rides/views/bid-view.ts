import { compileJsonShape, ObjectSpec } from '../../../common/database/json-shape';
import { sqlHaversineKm } from '../../../common/geo';
import { DriverPublicView, driverPublicShape } from './ride-view';

/**
 * A bid with its driver's public profile, vehicle, rating and distance to the pickup (from the
 * driver's last known position). Use as `SELECT ${BID_VIEW_COLUMNS} ${BID_VIEW_FROM} WHERE ...`.
 */
export const BID_VIEW_COLUMNS = `
  b.id, b.ride_id, b.driver_id, b.amount_minor, b.eta_minutes, b.status, b.created_at, b.updated_at, r.currency,
  u.first_name, u.last_name, u.profile_picture AS picture,
  d.rating, d.vehicle_category_id AS category, d.vehicle_make AS make, d.vehicle_model AS model,
  d.vehicle_plate AS plate, d.vehicle_color AS color, d.vehicle_year AS year,
  CASE WHEN d.last_latitude IS NULL THEN NULL
       ELSE ${sqlHaversineKm('d.last_latitude', 'd.last_longitude', 'r.pickup_latitude', 'r.pickup_longitude')} END AS distance_km`;

export const BID_VIEW_FROM = `
  FROM bids b
  JOIN rides r ON r.id = b.ride_id
  JOIN users u ON u.id = b.driver_id
  LEFT JOIN drivers d ON d.user_id = b.driver_id`;

/** Cheapest first; equal amounts by who bid first. */
export const BID_VIEW_ORDER = `ORDER BY b.amount_minor ASC, b.created_at ASC, b.id ASC`;

export interface BidViewRow {
  id: string;
  ride_id: string;
  driver_id: number;
  amount_minor: number;
  eta_minutes: number;
  status: BidStatus;
  created_at: Date;
  updated_at: Date;
  currency: string;
  first_name: string | null;
  last_name: string | null;
  picture: string | null;
  rating: number | null;
  category: number | null;
  make: string | null;
  model: string | null;
  plate: string | null;
  color: string | null;
  year: number | null;
  distance_km: number | null;
}

export type BidStatus = 'pending' | 'accepted' | 'rejected' | 'withdrawn';

/** The Bid object of CONTRACT.md 4a (BidResponseDto describes it). */
export type BidView = {
  id: string;
  ride_id: string;
  driver: DriverPublicView;
  amount: number;
  currency: string;
  eta_minutes: number;
  distance_km: number | null;
  status: BidStatus;
  created_at: string;
  updated_at: string;
};

const BID_SHAPE: ObjectSpec<BidView, BidViewRow> = {
  fields: {
    id: { from: ['id'] },
    ride_id: { from: ['ride_id'] },
    driver: driverPublicShape<BidViewRow>({
      id: 'driver_id',
      first_name: 'first_name',
      last_name: 'last_name',
      picture: 'picture',
      rating: 'rating',
      category: 'category',
      make: 'make',
      model: 'model',
      plate: 'plate',
      color: 'color',
      year: 'year',
    }),
    amount: { from: ['amount_minor'], as: 'major' },
    currency: { from: ['currency'], as: 'trim' },
    eta_minutes: { from: ['eta_minutes'] },
    distance_km: { from: ['distance_km'], as: 'hundredths' },
    status: { from: ['status'] },
    created_at: { from: ['created_at'], as: 'iso' },
    updated_at: { from: ['updated_at'], as: 'iso' },
  },
};

export const bidToJson = compileJsonShape(BID_SHAPE);
