import { col, doc, group, nullable, only, orNull, readModel, RowOf, sqlAs, ViewOfGroup } from '../../../common/database/read-model';
import { dtoOf } from '../../../common/http/read-model-openapi';
import { ESTIMATE, RIDE_TYPES } from '../../pricing/fare-estimate';
import { RIDE_STATUSES } from '../ride-status';

/** What the view reads beside the ride row `r`: for a statement whose `r` is a CTE (a ride it just wrote). */
export const RIDE_VIEW_JOINS = `
  LEFT JOIN users pu ON pu.id = r.passenger_id
  LEFT JOIN users du ON du.id = r.driver_id
  LEFT JOIN drivers dr ON dr.user_id = r.driver_id`;

export const RIDE_VIEW_FROM = `
  FROM rides r${RIDE_VIEW_JOINS}`;

export const PAYMENT_METHODS = ['cash', 'wallet', 'card'] as const;
/** A card ride's money (CONTRACT §12): pending until the hold at acceptance, then held, and so on. */
export const PAYMENT_STATUSES = ['pending', 'held', 'captured', 'released', 'failed', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const CANCELLED_BY = ['passenger', 'driver', 'operator'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type CancelledBy = (typeof CANCELLED_BY)[number];

/**
 * The driver's public profile (what a passenger needs to recognise the car) in some SELECT: the
 * driver's id column and the aliases of the joined users and drivers rows.
 */
export function driverPublic(from: { id: string; users: string; drivers: string }) {
  const { users: u, drivers: d } = from;
  return group('DriverPublicDto', {
    id: doc(col.number(sqlAs(from.id, 'driver_id')), { example: 7 }),
    first_name: nullable(col.text(sqlAs(`${u}.first_name`, 'd_first_name')), { example: 'Dana' }),
    last_name: nullable(col.text(sqlAs(`${u}.last_name`, 'd_last_name')), { example: 'Smith' }),
    profile_picture: nullable(col.text(sqlAs(`${u}.profile_picture`, 'd_picture'))),
    rating: nullable(col.decimal(sqlAs(`${d}.rating`, 'd_rating')), { example: 4.9, description: "The passengers' average of this driver; null until rated" }),
    vehicle: group('VehicleResponseDto', {
      category_id: nullable(col.number(sqlAs(`${d}.vehicle_category_id`, 'd_category')), { example: 1 }),
      make: nullable(col.text(sqlAs(`${d}.vehicle_make`, 'd_make')), { example: 'Toyota' }),
      model: nullable(col.text(sqlAs(`${d}.vehicle_model`, 'd_model')), { example: 'Corolla' }),
      plate: nullable(col.text(sqlAs(`${d}.vehicle_plate`, 'd_plate')), { example: 'B-RH 1234' }),
      color: nullable(col.text(sqlAs(`${d}.vehicle_color`, 'd_color')), { example: 'White' }),
      year: nullable(col.number(sqlAs(`${d}.vehicle_year`, 'd_year')), { example: 2021 }),
    }),
  });
}

/** The audience of the fields only the ride's passenger sees. */
const PASSENGER_AUDIENCE = 'passenger';

const ADDRESS = { example: 'Alexanderplatz 1, Berlin' };
const LATITUDE = { example: 52.5219 };
const LONGITUDE = { example: 13.4132 };

/**
 * The Ride object of CONTRACT.md 4a, declared once: each field's column (or jsonb path), how it is
 * written and how it is documented. The SELECT list, the row, the view every endpoint and ride event
 * carries, rideToJson and its SQL twin (the nearby page), and the OpenAPI schema all come from it:
 * a new ride field is one line here plus the migration of its column. A field for one audience alone
 * says so with `only` (the start PIN: the passenger's); every other reader's copy has null there,
 * through rideViewFor (endpoints, events as delivered) or RIDE_PUBLIC_COLUMNS (SQL pages of rides no
 * passenger reads: nearby). Use as `SELECT ${RIDE_VIEW_COLUMNS} ${RIDE_VIEW_FROM} WHERE ...`.
 */
export const RIDE = readModel(
  group('RideResponseDto', {
    id: col.uuid('r.id'),
    ride_code: col.text('r.ride_code', { example: 'K7M2QX' }),
    status: col.oneOf(RIDE_STATUSES)('r.status'),
    ride_type: col.oneOf(RIDE_TYPES)('r.ride_type'),
    pickup: group('LocationResponseDto', {
      address: col.text('r.pickup_address', ADDRESS),
      latitude: col.number('r.pickup_latitude', LATITUDE),
      longitude: col.number('r.pickup_longitude', LONGITUDE),
    }),
    dropoff: group('LocationResponseDto', {
      address: col.text('r.dropoff_address', ADDRESS),
      latitude: col.number('r.dropoff_latitude', LATITUDE),
      longitude: col.number('r.dropoff_longitude', LONGITUDE),
    }),
    // Null unless round_trip; the address alone may be missing.
    return_location: orNull(
      group('ReturnLocationResponseDto', {
        address: nullable(col.text('r.return_address'), ADDRESS),
        latitude: col.number('r.return_latitude', LATITUDE),
        longitude: col.number('r.return_longitude', LONGITUDE),
      }),
      [['return_latitude'], ['return_longitude']],
    ),
    vehicle_category_id: col.number('r.vehicle_category_id', { example: 1 }),
    passenger_count: col.number('r.passenger_count', { example: 1 }),
    children: col.number('r.children', { example: 0 }),
    payment_method: col.oneOf(PAYMENT_METHODS)('r.payment_method'),
    duration_minutes: nullable(col.number('r.duration_minutes')),
    end_scheduled_at: nullable(col.time('r.end_scheduled_at')),
    return_scheduled_at: nullable(col.time('r.return_scheduled_at')),
    promo_code: nullable(col.text('r.promo_code')),
    pickup_at: nullable(col.time('r.pickup_at'), {
      example: '2026-11-22T18:30:00.000Z',
      description: 'Ride later: the requested pickup time; null for a ride now',
    }),
    estimate: { ...ESTIMATE, description: 'The fare estimate stored at booking' },
    fare: nullable(col.money('r.fare_minor'), { example: 15.5, description: 'The accepted bid amount; null before acceptance' }),
    currency: col.trimmed('r.currency', { example: 'USD' }),
    offered_fare: nullable(col.money('r.offered_fare_minor'), { example: 16, description: "The passenger's own price (drivers may bid it); null when none" }),
    start_pin: only(
      PASSENGER_AUDIENCE,
      nullable(col.text('r.start_pin'), {
        example: '0427',
        description: 'The 4 digits the passenger tells the driver to start (CONTRACT §14); null for anyone else, and for a ride without one',
      }),
    ),
    tip: nullable(col.money('r.tip_minor'), { example: 2.5, description: 'The tip the passenger paid after completion; null before' }),
    payment_status: nullable(col.oneOf(PAYMENT_STATUSES)('r.payment_status'), {
      example: 'held',
      description:
        'Card rides: pending until the hold at acceptance, then held, captured (also when a cancellation fee was taken from the hold), ' +
        'released, failed (declined capture, expired hold), partially_refunded or refunded; null for cash and wallet rides',
    }),
    cancellation_fee: nullable(col.money('r.cancellation_fee_minor'), {
      example: 3,
      description: 'What a late cancel or a no-show took; null when nothing was',
    }),
    refunded_amount: doc(col.money('r.refunded_minor'), { example: 0, description: 'The total refunded on this ride (0 when none)' }),
    passenger: orNull(
      group('PassengerPublicDto', {
        id: doc(col.number('r.passenger_id'), { example: 3 }),
        first_name: nullable(col.text('pu.first_name AS p_first_name'), { example: 'Paula' }),
        last_name: nullable(col.text('pu.last_name AS p_last_name'), { example: 'Jones' }),
        profile_picture: nullable(col.text('pu.profile_picture AS p_picture')),
        rating: nullable(col.decimal('pu.rating AS p_rating'), { example: 4.8, description: "The drivers' average of this passenger; null until rated" }),
      }),
      [['passenger_id']],
    ),
    driver: orNull(driverPublic({ id: 'r.driver_id', users: 'du', drivers: 'dr' }), [['driver_id']], 'null before acceptance'),
    accepted_bid_id: nullable(col.uuid('r.accepted_bid_id')),
    cancelled_by: nullable(col.oneOf(CANCELLED_BY)('r.cancelled_by')),
    cancel_reason: nullable(col.text('r.cancel_reason')),
    driver_rating: nullable(col.number('r.driver_rating'), { example: 5, description: 'Stars the passenger gave the driver on this ride; null before' }),
    passenger_rating: nullable(col.number('r.passenger_rating'), { example: 5, description: 'Stars the driver gave the passenger on this ride; null before' }),
    expires_at: col.time('r.expires_at'),
    accepted_at: nullable(col.time('r.accepted_at')),
    arrived_at: nullable(col.time('r.arrived_at')),
    started_at: nullable(col.time('r.started_at')),
    completed_at: nullable(col.time('r.completed_at')),
    cancelled_at: nullable(col.time('r.cancelled_at')),
    created_at: col.time('r.created_at'),
    updated_at: col.time('r.updated_at'),
  }),
);

export const RIDE_VIEW_COLUMNS = RIDE.columns;
/** The SELECT list for readers who are nobody's passenger (nearby drivers): passenger-only fields are NULL. */
export const RIDE_PUBLIC_COLUMNS = RIDE.columnsFor(null);
export const RIDE_SHAPE = RIDE.shape;
export const rideToJson = RIDE.toJson;
export type RideViewRow = RowOf<typeof RIDE.root>;
/** The Ride object as every endpoint and every ride event carries it. */
export type RideView = ViewOfGroup<typeof RIDE.root>;
export type DriverPublicView = NonNullable<RideView['driver']>;
/** Its OpenAPI schema (also the `ride` of every WebSocket event). */
export const RideResponseDto = dtoOf(RIDE.root);
export type RideResponseDto = RideView;

/** The ride as `userId` may see it: all of it for its passenger, without the passenger's fields for anyone else (null: no user). */
export function rideViewFor(view: RideView, userId: number | null): RideView {
  return RIDE.viewFor(view, userId !== null && view.passenger?.id === userId ? PASSENGER_AUDIENCE : undefined);
}

export function iso(value: Date | string): string;
export function iso(value: Date | string | null | undefined): string | null;
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
