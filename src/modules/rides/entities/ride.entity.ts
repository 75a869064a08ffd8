import { ASSIGNED_STATUSES, LIVE_STATUSES, NON_FINAL_STATUSES, RIDE_STATUSES, RideStatus, sqlStatusList } from '../ride-status';
import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

export type RideEntityStatus = RideStatus;

/** Must match the row the migration RidesPickupVector1763800009400 stores for TypeORM's diff. */
const PICKUP_VEC_EXPRESSION =
  'cube(ARRAY[cosd(pickup_latitude) * cosd(pickup_longitude), cosd(pickup_latitude) * sind(pickup_longitude), sind(pickup_latitude)])';

/**
 * A ride from request to its end. Hot paths read and write it with raw SQL (the repositories); this
 * class documents the schema for TypeORM's diff. The partial indexes' conditions are documentation:
 * TypeORM matches indexes by name, columns, uniqueness and method, and cannot express DESC order
 * (the history indexes are (passenger_id, created_at DESC) and (driver_id, completed_at DESC)).
 */
@Entity({ name: 'rides' })
@Check('rides_status_check', `status IN ${sqlStatusList(RIDE_STATUSES)}`)
@Check('rides_ride_type_check', `ride_type IN ('one_way', 'round_trip', 'per_hour', 'delivery')`)
@Check('rides_passenger_count_check', `passenger_count >= 0`)
@Check('rides_children_check', `children >= 0`)
@Check('rides_start_pin_check', `start_pin ~ '^[0-9]{4}$'`)
@Check('rides_payment_method_check', `payment_method IN ('cash', 'wallet', 'card')`)
@Check('rides_payment_status_check', `payment_status IN ('pending', 'held', 'captured', 'released', 'failed', 'partially_refunded', 'refunded')`)
@Check('rides_card_payment_status_check', `(payment_method = 'card') = (payment_status IS NOT NULL)`)
@Check('rides_cancellation_fee_check', `cancellation_fee_minor > 0`)
@Check('rides_refunded_check', `refunded_minor >= 0`)
@Check('rides_cancelled_by_check', `cancelled_by IN ('passenger', 'driver', 'operator')`)
@Check('rides_driver_rating_check', `driver_rating BETWEEN 1 AND 5`)
@Check('rides_passenger_rating_check', `passenger_rating BETWEEN 1 AND 5`)
// At most one non-final ride per code, one live ride booked for now per passenger and one live ride
// per driver: the races are settled by these (a ride booked for later is dispatched whatever else is live).
@Index('rides_code_live_uq', ['rideCode'], { unique: true, where: `status IN ${sqlStatusList(NON_FINAL_STATUSES)}` })
@Index('rides_passenger_live_uq', ['passengerId'], { unique: true, where: `status IN ${sqlStatusList(LIVE_STATUSES)} AND pickup_at IS NULL` })
@Index('rides_passenger_live_idx', ['passengerId'], { where: `status IN ${sqlStatusList(LIVE_STATUSES)}` })
@Index('rides_driver_live_uq', ['driverId'], { unique: true, where: `status IN ${sqlStatusList(ASSIGNED_STATUSES)}` })
// GiST (btree_gist for the category) over the pickup unit vector: nearest-first order for nearby requests.
@Index('rides_requested_near_idx', ['vehicleCategoryId', 'pickupVec'], { spatial: true, where: `status = 'requested'` })
@Index('rides_requested_expiry_idx', ['expiresAt'], { where: `status = 'requested'` })
@Index('rides_scheduled_dispatch_idx', ['dispatchAt'], { where: `status = 'scheduled'` })
@Index('rides_passenger_scheduled_idx', ['passengerId', 'pickupAt'], { where: `status = 'scheduled'` })
@Index('rides_passenger_history_idx', ['passengerId', 'createdAt'])
@Index('rides_driver_history_idx', ['driverId', 'completedAt'])
export class RideEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** Six characters, unique among live rides only. */
  @Column({ name: 'ride_code', type: 'char', length: 6 })
  rideCode!: string;

  @Column({ type: 'varchar', length: 20 })
  status!: RideEntityStatus;

  @Column({ name: 'ride_type', type: 'varchar', length: 16 })
  rideType!: 'one_way' | 'round_trip' | 'per_hour' | 'delivery';

  @Column({ name: 'passenger_id', type: 'int', nullable: true })
  @ForeignKey('users', { name: 'rides_passenger_id_fkey', onDelete: 'SET NULL' })
  passengerId!: number | null;

  @Column({ name: 'driver_id', type: 'int', nullable: true })
  @ForeignKey('users', { name: 'rides_driver_id_fkey', onDelete: 'SET NULL' })
  driverId!: number | null;

  @Column({ name: 'vehicle_category_id', type: 'int' })
  @ForeignKey('vehicle_categories', { name: 'rides_vehicle_category_id_fkey' })
  vehicleCategoryId!: number;

  @Column({ name: 'pickup_address', type: 'varchar', length: 300 })
  pickupAddress!: string;

  @Column({ name: 'pickup_latitude', type: 'double precision' })
  pickupLatitude!: number;

  @Column({ name: 'pickup_longitude', type: 'double precision' })
  pickupLongitude!: number;

  @Column({ name: 'dropoff_address', type: 'varchar', length: 300 })
  dropoffAddress!: string;

  @Column({ name: 'dropoff_latitude', type: 'double precision' })
  dropoffLatitude!: number;

  @Column({ name: 'dropoff_longitude', type: 'double precision' })
  dropoffLongitude!: number;

  @Column({ name: 'return_address', type: 'varchar', length: 300, nullable: true })
  returnAddress!: string | null;

  @Column({ name: 'return_latitude', type: 'double precision', nullable: true })
  returnLatitude!: number | null;

  @Column({ name: 'return_longitude', type: 'double precision', nullable: true })
  returnLongitude!: number | null;

  @Column({ name: 'passenger_count', type: 'int' })
  passengerCount!: number;

  @Column({ type: 'int', default: 0 })
  children!: number;

  @Column({ name: 'payment_method', type: 'varchar', length: 16 })
  paymentMethod!: 'cash' | 'wallet' | 'card';

  /** Card rides only (CONTRACT §12): where the ride's card money stands; null for cash and wallet. */
  @Column({ name: 'payment_status', type: 'varchar', length: 24, nullable: true })
  paymentStatus!: string | null;

  /** What a late cancel or a no-show actually took; null when nothing was. */
  @Column({ name: 'cancellation_fee_minor', type: 'bigint', nullable: true })
  cancellationFeeMinor!: number | null;

  /** The total of the refunds made on the ride's payments. */
  @Column({ name: 'refunded_minor', type: 'bigint', default: 0 })
  refundedMinor!: number;

  @Column({ name: 'duration_minutes', type: 'int', nullable: true })
  durationMinutes!: number | null;

  @Column({ name: 'end_scheduled_at', type: 'timestamptz', nullable: true })
  endScheduledAt!: Date | null;

  @Column({ name: 'return_scheduled_at', type: 'timestamptz', nullable: true })
  returnScheduledAt!: Date | null;

  @Column({ name: 'promo_code', type: 'varchar', length: 40, nullable: true })
  promoCode!: string | null;

  /** The fare estimate the passenger booked with (breakdown in minor units). */
  @Column({ type: 'jsonb' })
  estimate!: Record<string, unknown>;

  @Column({ name: 'estimated_fare_minor', type: 'bigint' })
  estimatedFareMinor!: number;

  @Column({ name: 'fare_minor', type: 'bigint', nullable: true })
  fareMinor!: number | null;

  @Column({ name: 'offered_fare_minor', type: 'bigint', nullable: true })
  offeredFareMinor!: number | null;

  @Column({ name: 'tip_minor', type: 'bigint', nullable: true })
  tipMinor!: number | null;

  @Column({ name: 'tipped_at', type: 'timestamptz', nullable: true })
  tippedAt!: Date | null;

  /** The PIN the driver needs to start (CONTRACT §14), made at acceptance when the passenger asked for one. */
  @Column({ name: 'start_pin', type: 'char', length: 4, nullable: true })
  startPin!: string | null;

  @Column({ name: 'start_pin_failures', type: 'smallint', default: 0 })
  startPinFailures!: number;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  @Column({ name: 'accepted_bid_id', type: 'uuid', nullable: true })
  acceptedBidId!: string | null;

  @Column({ name: 'cancelled_by', type: 'varchar', length: 16, nullable: true })
  cancelledBy!: 'passenger' | 'driver' | 'operator' | null;

  @Column({ name: 'cancel_reason', type: 'varchar', length: 500, nullable: true })
  cancelReason!: string | null;

  /** Ride later: when the passenger wants to be picked up; null for a ride now. */
  @Column({ name: 'pickup_at', type: 'timestamptz', nullable: true })
  pickupAt!: Date | null;

  /** Ride later: when the dispatcher makes the scheduled ride requested (pickup_at - DISPATCH_LEAD_MINUTES). */
  @Column({ name: 'dispatch_at', type: 'timestamptz', nullable: true })
  dispatchAt!: Date | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt!: Date | null;

  @Column({ name: 'arrived_at', type: 'timestamptz', nullable: true })
  arrivedAt!: Date | null;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true })
  cancelledAt!: Date | null;

  /** The stars the passenger gave the driver on this ride (ride_ratings holds the comment). */
  @Column({ name: 'driver_rating', type: 'smallint', nullable: true })
  driverRating!: number | null;

  /** The stars the driver gave the passenger on this ride. */
  @Column({ name: 'passenger_rating', type: 'smallint', nullable: true })
  passengerRating!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  /**
   * The pickup as a 3-D unit vector (x, y, z on the unit sphere), computed by PostgreSQL; never
   * written by the application. Chord distance orders like great-circle distance.
   */
  @Column({
    name: 'pickup_vec',
    type: 'cube',
    generatedType: 'STORED',
    asExpression: PICKUP_VEC_EXPRESSION,
    nullable: true,
    insert: false,
    update: false,
  })
  pickupVec!: number[] | null;
}
