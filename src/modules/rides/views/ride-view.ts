import { toMajor } from '../../../common/money';
import { EstimateView, estimateToJson, FareEstimate, RideType } from '../fare/fare-estimate';
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

/** The driver's public profile: what a passenger needs to recognise the car. */
export function driverPublicJson(row: {
  id: number;
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
}): DriverPublicView {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    profile_picture: row.picture,
    rating: row.rating === null ? null : Number(row.rating),
    vehicle: {
      category_id: row.category,
      make: row.make,
      model: row.model,
      plate: row.plate,
      color: row.color,
      year: row.year,
    },
  };
}

/** The Ride object of CONTRACT.md 4a. It never depends on who reads it (events carry it as-is). */
export function rideToJson(row: RideViewRow): RideView {
  const currency = row.currency.trim();
  return {
    id: row.id,
    ride_code: row.ride_code,
    status: row.status,
    ride_type: row.ride_type,
    pickup: { address: row.pickup_address, latitude: row.pickup_latitude, longitude: row.pickup_longitude },
    dropoff: { address: row.dropoff_address, latitude: row.dropoff_latitude, longitude: row.dropoff_longitude },
    return_location:
      row.return_latitude === null || row.return_longitude === null
        ? null
        : { address: row.return_address, latitude: row.return_latitude, longitude: row.return_longitude },
    vehicle_category_id: row.vehicle_category_id,
    passenger_count: row.passenger_count,
    children: row.children,
    payment_method: row.payment_method,
    duration_minutes: row.duration_minutes,
    end_scheduled_at: iso(row.end_scheduled_at),
    return_scheduled_at: iso(row.return_scheduled_at),
    promo_code: row.promo_code,
    estimate: estimateToJson(row.estimate, currency),
    fare: row.fare_minor === null ? null : toMajor(row.fare_minor),
    currency,
    passenger:
      row.passenger_id === null
        ? null
        : { id: row.passenger_id, first_name: row.p_first_name, last_name: row.p_last_name, profile_picture: row.p_picture },
    driver:
      row.driver_id === null
        ? null
        : driverPublicJson({
            id: row.driver_id,
            first_name: row.d_first_name,
            last_name: row.d_last_name,
            picture: row.d_picture,
            rating: row.d_rating,
            category: row.d_category,
            make: row.d_make,
            model: row.d_model,
            plate: row.d_plate,
            color: row.d_color,
            year: row.d_year,
          }),
    accepted_bid_id: row.accepted_bid_id,
    cancelled_by: row.cancelled_by,
    cancel_reason: row.cancel_reason,
    expires_at: iso(row.expires_at),
    accepted_at: iso(row.accepted_at),
    arrived_at: iso(row.arrived_at),
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    cancelled_at: iso(row.cancelled_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** An ISO-8601 UTC timestamp with milliseconds, as Date#toISOString writes it (null stays null). */
function sqlIso(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** toMajor in SQL: integer minor units (a column or a jsonb number) to a float8 in major units. */
function sqlMajor(minor: string): string {
  return `(${minor})::float8 / 100`;
}

/**
 * rideToJson written in SQL, over the columns of RIDE_VIEW_COLUMNS selected under `alias`: for the
 * pages of many rides (nearby) the database builds the JSON text and the service sends it as it is,
 * instead of parsing 50 rows × 50 columns into objects and serialising them again. Keep the two in
 * step: a test compares them field by field on rides of every shape. `extraFields`: more
 * `'key', expression` pairs appended to the object (nearby's distance_km).
 */
export function rideJsonSql(alias: string, extraFields = ''): string {
  const c = (column: string) => `${alias}.${column}`;
  const estimate = (key: string) => `${c('estimate')} -> '${key}'`;
  const promo = (key: string) => `${c('estimate')} -> 'promo' -> '${key}'`;
  const currency = `btrim(${c('currency')})`;
  return `json_build_object(
    'id', ${c('id')}, 'ride_code', ${c('ride_code')}, 'status', ${c('status')}, 'ride_type', ${c('ride_type')},
    'pickup', json_build_object('address', ${c('pickup_address')}, 'latitude', ${c('pickup_latitude')}, 'longitude', ${c('pickup_longitude')}),
    'dropoff', json_build_object('address', ${c('dropoff_address')}, 'latitude', ${c('dropoff_latitude')}, 'longitude', ${c('dropoff_longitude')}),
    'return_location', CASE WHEN ${c('return_latitude')} IS NULL THEN NULL
      ELSE json_build_object('address', ${c('return_address')}, 'latitude', ${c('return_latitude')}, 'longitude', ${c('return_longitude')}) END,
    'vehicle_category_id', ${c('vehicle_category_id')}, 'passenger_count', ${c('passenger_count')}, 'children', ${c('children')},
    'payment_method', ${c('payment_method')}, 'duration_minutes', ${c('duration_minutes')},
    'end_scheduled_at', ${sqlIso(c('end_scheduled_at'))}, 'return_scheduled_at', ${sqlIso(c('return_scheduled_at'))},
    'promo_code', ${c('promo_code')},
    'estimate', json_build_object(
      'vehicle_category_id', ${estimate('vehicleCategoryId')}, 'ride_type', ${estimate('rideType')},
      'distance_km', ${estimate('distanceKm')}, 'duration_minutes', ${estimate('durationMinutes')}, 'currency', ${currency},
      'breakdown', json_build_object(
        'base', ${sqlMajor(`${estimate('baseMinor')}`)}, 'distance', ${sqlMajor(`${estimate('distanceMinor')}`)},
        'time', ${sqlMajor(`${estimate('timeMinor')}`)}, 'subtotal', ${sqlMajor(`${estimate('subtotalMinor')}`)},
        'minimum_fare', ${sqlMajor(`${estimate('minimumFareMinor')}`)}, 'minimum_fare_applied', ${estimate('minimumFareApplied')},
        'discount', ${sqlMajor(`${estimate('discountMinor')}`)}, 'total', ${sqlMajor(`${estimate('totalMinor')}`)}),
      'promo', CASE WHEN jsonb_typeof(${estimate('promo')}) = 'object' THEN json_build_object(
        'code', ${promo('code')}, 'applied', ${promo('applied')}, 'reason', ${promo('reason')}, 'discount', ${sqlMajor(promo('discountMinor'))}) END),
    'fare', ${sqlMajor(c('fare_minor'))}, 'currency', ${currency},
    'passenger', CASE WHEN ${c('passenger_id')} IS NULL THEN NULL ELSE json_build_object(
      'id', ${c('passenger_id')}, 'first_name', ${c('p_first_name')}, 'last_name', ${c('p_last_name')}, 'profile_picture', ${c('p_picture')}) END,
    'driver', CASE WHEN ${c('driver_id')} IS NULL THEN NULL ELSE json_build_object(
      'id', ${c('driver_id')}, 'first_name', ${c('d_first_name')}, 'last_name', ${c('d_last_name')}, 'profile_picture', ${c('d_picture')},
      'rating', ${c('d_rating')}::float8,
      'vehicle', json_build_object('category_id', ${c('d_category')}, 'make', ${c('d_make')}, 'model', ${c('d_model')},
        'plate', ${c('d_plate')}, 'color', ${c('d_color')}, 'year', ${c('d_year')})) END,
    'accepted_bid_id', ${c('accepted_bid_id')}, 'cancelled_by', ${c('cancelled_by')}, 'cancel_reason', ${c('cancel_reason')},
    'expires_at', ${sqlIso(c('expires_at'))}, 'accepted_at', ${sqlIso(c('accepted_at'))}, 'arrived_at', ${sqlIso(c('arrived_at'))},
    'started_at', ${sqlIso(c('started_at'))}, 'completed_at', ${sqlIso(c('completed_at'))}, 'cancelled_at', ${sqlIso(c('cancelled_at'))},
    'created_at', ${sqlIso(c('created_at'))}, 'updated_at', ${sqlIso(c('updated_at'))}${extraFields ? `, ${extraFields}` : ''})`;
}
