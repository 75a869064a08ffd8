import { compileJsonShape, ObjectSpec } from '../../../common/database/json-shape';
import { ESTIMATE_SHAPE, EstimateView, FareEstimate, RideType } from '../fare/fare-estimate';
import type { RideStatus } from '../ride-status';

/**
 * The one SELECT behind every ride the API returns: the ride with its passenger's and driver's
 * public profiles, in a single indexed query. Use as `SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE ...`.
 */
export const RIDE_VIEW_COLUMNS = `
  r.id, r.ride_code, r.status, r.ride_type, r.vehicle_category_id, r.passenger_id, r.driver_id,
  r.pickup_address, r.pickup_latitude, r.pickup_longitude,
  r.dropoff_address, r.dropoff_latitude, r.dropoff_longitude,
  r.return_address, r.return_latitude, r.return_longitude,
  r.passenger_count, r.children, r.payment_method, r.duration_minutes, r.end_scheduled_at, r.return_scheduled_at,
  r.promo_code, r.estimate, r.fare_minor, r.currency, r.accepted_bid_id, r.cancelled_by, r.cancel_reason,
  r.expires_at, r.accepted_at, r.arrived_at, r.started_at, r.completed_at, r.cancelled_at, r.created_at, r.updated_at,
  pu.first_name AS p_first_name, pu.last_name AS p_last_name, pu.profile_picture AS p_picture,
  du.first_name AS d_first_name, du.last_name AS d_last_name, du.profile_picture AS d_picture,
  dr.rating AS d_rating, dr.vehicle_category_id AS d_category, dr.vehicle_make AS d_make, dr.vehicle_model AS d_model,
  dr.vehicle_plate AS d_plate, dr.vehicle_color AS d_color, dr.vehicle_year AS d_year`;

export const RIDE_VIEW_FROM = `
  FROM rides r
  LEFT JOIN users pu ON pu.id = r.passenger_id
  LEFT JOIN users du ON du.id = r.driver_id
  LEFT JOIN drivers dr ON dr.user_id = r.driver_id`;

export interface RideViewRow {
  id: string;
  ride_code: string;
  status: RideStatus;
  ride_type: RideType;
  vehicle_category_id: number;
  passenger_id: number | null;
  driver_id: number | null;
  pickup_address: string;
  pickup_latitude: number;
  pickup_longitude: number;
  dropoff_address: string;
  dropoff_latitude: number;
  dropoff_longitude: number;
  return_address: string | null;
  return_latitude: number | null;
  return_longitude: number | null;
  passenger_count: number;
  children: number;
  payment_method: PaymentMethod;
  duration_minutes: number | null;
  end_scheduled_at: Date | null;
  return_scheduled_at: Date | null;
  promo_code: string | null;
  estimate: FareEstimate;
  fare_minor: number | null;
  currency: string;
  accepted_bid_id: string | null;
  cancelled_by: CancelledBy | null;
  cancel_reason: string | null;
  expires_at: Date;
  accepted_at: Date | null;
  arrived_at: Date | null;
  started_at: Date | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
  p_first_name: string | null;
  p_last_name: string | null;
  p_picture: string | null;
  d_first_name: string | null;
  d_last_name: string | null;
  d_picture: string | null;
  d_rating: number | null;
  d_category: number | null;
  d_make: string | null;
  d_model: string | null;
  d_plate: string | null;
  d_color: string | null;
  d_year: number | null;
}

export type PaymentMethod = 'cash' | 'wallet';
export type CancelledBy = 'passenger' | 'driver';

export type LocationView = { address: string; latitude: number; longitude: number };
export type ReturnLocationView = { address: string | null; latitude: number; longitude: number };
export type PassengerPublicView = { id: number; first_name: string | null; last_name: string | null; profile_picture: string | null };
export type VehicleView = {
  category_id: number | null;
  make: string | null;
  model: string | null;
  plate: string | null;
  color: string | null;
  year: number | null;
};
export type DriverPublicView = PassengerPublicView & { rating: number | null; vehicle: VehicleView };

/** The Ride object of CONTRACT.md 4a, as every endpoint and every ride event carries it (RideResponseDto describes it). */
export type RideView = {
  id: string;
  ride_code: string;
  status: RideStatus;
  ride_type: RideType;
  pickup: LocationView;
  dropoff: LocationView;
  return_location: ReturnLocationView | null;
  vehicle_category_id: number;
  passenger_count: number;
  children: number;
  payment_method: PaymentMethod;
  duration_minutes: number | null;
  end_scheduled_at: string | null;
  return_scheduled_at: string | null;
  promo_code: string | null;
  estimate: EstimateView;
  fare: number | null;
  currency: string;
  passenger: PassengerPublicView | null;
  driver: DriverPublicView | null;
  accepted_bid_id: string | null;
  cancelled_by: CancelledBy | null;
  cancel_reason: string | null;
  expires_at: string;
  accepted_at: string | null;
  arrived_at: string | null;
  started_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
};

export function iso(value: Date | string): string;
export function iso(value: Date | string | null | undefined): string | null;
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** The driver's public profile (what a passenger needs to recognise the car), over the given columns. */
export function driverPublicShape<Row>(c: {
  id: keyof Row & string;
  first_name: keyof Row & string;
  last_name: keyof Row & string;
  picture: keyof Row & string;
  rating: keyof Row & string;
  category: keyof Row & string;
  make: keyof Row & string;
  model: keyof Row & string;
  plate: keyof Row & string;
  color: keyof Row & string;
  year: keyof Row & string;
}): ObjectSpec<DriverPublicView, Row> {
  return {
    nullIf: [[c.id]],
    fields: {
      id: { from: [c.id] },
      first_name: { from: [c.first_name] },
      last_name: { from: [c.last_name] },
      profile_picture: { from: [c.picture] },
      rating: { from: [c.rating], as: 'number' },
      vehicle: {
        fields: {
          category_id: { from: [c.category] },
          make: { from: [c.make] },
          model: { from: [c.model] },
          plate: { from: [c.plate] },
          color: { from: [c.color] },
          year: { from: [c.year] },
        },
      },
    },
  };
}

/**
 * The Ride object of CONTRACT.md 4a over RIDE_VIEW_COLUMNS, stated once: rideToJson and rideJsonSql
 * are both compiled from it. It never depends on who reads it (events carry it as-is).
 */
export const RIDE_SHAPE: ObjectSpec<RideView, RideViewRow> = {
  fields: {
    id: { from: ['id'] },
    ride_code: { from: ['ride_code'] },
    status: { from: ['status'] },
    ride_type: { from: ['ride_type'] },
    pickup: { fields: { address: { from: ['pickup_address'] }, latitude: { from: ['pickup_latitude'] }, longitude: { from: ['pickup_longitude'] } } },
    dropoff: { fields: { address: { from: ['dropoff_address'] }, latitude: { from: ['dropoff_latitude'] }, longitude: { from: ['dropoff_longitude'] } } },
    return_location: {
      nullIf: [['return_latitude'], ['return_longitude']],
      fields: { address: { from: ['return_address'] }, latitude: { from: ['return_latitude'] }, longitude: { from: ['return_longitude'] } },
    },
    vehicle_category_id: { from: ['vehicle_category_id'] },
    passenger_count: { from: ['passenger_count'] },
    children: { from: ['children'] },
    payment_method: { from: ['payment_method'] },
    duration_minutes: { from: ['duration_minutes'] },
    end_scheduled_at: { from: ['end_scheduled_at'], as: 'iso' },
    return_scheduled_at: { from: ['return_scheduled_at'], as: 'iso' },
    promo_code: { from: ['promo_code'] },
    estimate: ESTIMATE_SHAPE,
    fare: { from: ['fare_minor'], as: 'major' },
    currency: { from: ['currency'], as: 'trim' },
    passenger: {
      nullIf: [['passenger_id']],
      fields: { id: { from: ['passenger_id'] }, first_name: { from: ['p_first_name'] }, last_name: { from: ['p_last_name'] }, profile_picture: { from: ['p_picture'] } },
    },
    driver: driverPublicShape<RideViewRow>({
      id: 'driver_id',
      first_name: 'd_first_name',
      last_name: 'd_last_name',
      picture: 'd_picture',
      rating: 'd_rating',
      category: 'd_category',
      make: 'd_make',
      model: 'd_model',
      plate: 'd_plate',
      color: 'd_color',
      year: 'd_year',
    }),
    accepted_bid_id: { from: ['accepted_bid_id'] },
    cancelled_by: { from: ['cancelled_by'] },
    cancel_reason: { from: ['cancel_reason'] },
    expires_at: { from: ['expires_at'], as: 'iso' },
    accepted_at: { from: ['accepted_at'], as: 'iso' },
    arrived_at: { from: ['arrived_at'], as: 'iso' },
    started_at: { from: ['started_at'], as: 'iso' },
    completed_at: { from: ['completed_at'], as: 'iso' },
    cancelled_at: { from: ['cancelled_at'], as: 'iso' },
    created_at: { from: ['created_at'], as: 'iso' },
    updated_at: { from: ['updated_at'], as: 'iso' },
  },
};

export const rideToJson = compileJsonShape(RIDE_SHAPE);

