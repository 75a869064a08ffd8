import { toMajor } from '../../../common/money';
import { sqlHaversineKm } from '../../../common/geo';
import { DriverPublicView, driverPublicJson, iso } from './ride-view';

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

export function bidToJson(row: BidViewRow): BidView {
  return {
    id: row.id,
    ride_id: row.ride_id,
    driver: driverPublicJson({ ...row, id: row.driver_id }),
    amount: toMajor(row.amount_minor),
    currency: row.currency.trim(),
    eta_minutes: row.eta_minutes,
    distance_km: row.distance_km === null ? null : Math.round(Number(row.distance_km) * 100) / 100,
    status: row.status,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
