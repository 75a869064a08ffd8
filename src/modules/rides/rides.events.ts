import type { GeoPoint } from '../../common/events/domain-events';
import type { RideStatus } from './ride-status';
import type { CancelledBy, RideView } from './read-models/ride-view';
import type { TipView } from './tips/tip-view';

/**
 * The ride events, added to the domain events by declaration merging (the bus in common/ knows no
 * module). Each is published by RideTransitionsService after its transition commits; `ride` is the
 * ride exactly as the REST API returns it. ride.accepted is declared with the bids (bids/bids.events.ts).
 */
declare module '../../common/events/domain-events' {
  interface DomainEventMap {
    'ride.requested': {
      ride_id: string;
      passenger_id: number;
      vehicle_category_id: number;
      pickup: GeoPoint;
      ride: RideView;
    };
    /** A ride was booked for later (status scheduled); routed to nobody, a hook for caches and indexes. */
    'ride.scheduled': {
      ride_id: string;
      passenger_id: number;
      ride: RideView;
    };
    /**
     * A ride booked for later became requested (scheduled → requested): the passenger is told its
     * status changed, and it is matched like a new request (the same fields as ride.requested).
     */
    'ride.dispatched': {
      ride_id: string;
      passenger_id: number;
      vehicle_category_id: number;
      pickup: GeoPoint;
      ride: RideView;
    };
    'ride.status_changed': {
      ride_id: string;
      passenger_id: number | null;
      driver_id: number | null;
      status: RideStatus;
      ride: RideView;
    };
    'ride.cancelled': {
      ride_id: string;
      passenger_id: number | null;
      driver_id: number | null;
      /** Drivers whose bids were live when the ride was cancelled (now withdrawn). */
      bidder_driver_ids: number[];
      cancelled_by: CancelledBy;
      ride: RideView;
    };
    /** The passenger raised the offered_fare of a requested ride: the request is announced again (payload like ride.requested). */
    'ride.offer_raised': {
      ride_id: string;
      passenger_id: number;
      vehicle_category_id: number;
      pickup: GeoPoint;
      ride: RideView;
    };
    /** The passenger tipped the driver of a completed ride (paid wallet to wallet in the same transaction). */
    'ride.tipped': {
      ride_id: string;
      passenger_id: number;
      driver_id: number;
      tip: TipView;
      ride: RideView;
    };
    'ride.expired': {
      ride_id: string;
      passenger_id: number | null;
      bidder_driver_ids: number[];
      ride: RideView;
    };
    /**
     * The ride's money changed outside a status change (a refund, a webhook of Stripe's): caches
     * forget the ride. `failed`: its card payment just failed (a hold Stripe cancelled), for operators.
     */
    'ride.payment_changed': {
      ride_id: string;
      passenger_id: number | null;
      driver_id: number | null;
      failed: boolean;
      ride: RideView;
    };
  }
}

/** Events this module publishes. */
export const RIDE_EVENTS = [
  'ride.requested',
  'ride.scheduled',
  'ride.dispatched',
  'ride.status_changed',
  'ride.cancelled',
  'ride.expired',
  'ride.offer_raised',
  'ride.tipped',
  'ride.payment_changed',
] as const;
