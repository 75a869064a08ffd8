import type { DomainEventMap, DomainEventName, GeoPoint, JsonObject } from '../../common/events/domain-events';
import type { LiveRide } from './ports/ride-snapshot.port';
import type { RideEventType } from './realtime.events';

/**
 * Who receives what (CONTRACT §5), stated once for both channels: the sockets of this instance and
 * push notifications to receivers no instance can reach (CONTRACT §10). A route turns one domain
 * event into messages; each message names its receivers, its socket payload and what a
 * backgrounded app shows. Every routed message is pushed, so an event added here (§11's
 * chat_message, say) is pushed by declaration. Not routed here: ride_snapshot (sent on connect) and
 * driver_location (the hot path, throttled per ride and never pushed; in RealtimeService).
 */
export type RoutedType = Exclude<RideEventType, 'ride_snapshot' | 'driver_location'>;

/** The notification a backgrounded app shows; the push's data is only `{type, ride_id}`. */
export interface PushText {
  title: string;
  body: string;
}

/** The drivers the matcher tells about a new request: online, approved, of the category, near the point. */
export interface DriversNear {
  categoryId: number;
  point: GeoPoint;
}

export interface LiveMessage {
  type: RoutedType;
  rideId: string;
  /** User ids (nulls skipped), or the matcher's lookup (resolved at most once per message on an instance). */
  to: ReadonlyArray<number | null> | DriversNear;
  data: JsonObject;
  /** Written only when a push goes out, off the socket path. */
  push: () => PushText;
}

type Route<K extends DomainEventName> = (event: DomainEventMap[K]) => LiveMessage[];
type LiveRoutes = { readonly [K in DomainEventName]?: Route<K> };

export function isDriversNear(to: LiveMessage['to']): to is DriversNear {
  return !Array.isArray(to);
}

export const LIVE_ROUTES = {
  'ride.requested': (e) => [
    {
      type: 'ride_requested',
      rideId: e.ride_id,
      to: { categoryId: e.vehicle_category_id, point: e.pickup },
      data: { ride: e.ride },
      push: () => ({ title: 'New ride request', body: `Pickup: ${e.ride.pickup.address}. Open the app to make an offer.` }),
    },
  ],

  'bid.submitted': (e) => [
    {
      type: 'bid_submitted',
      rideId: e.ride_id,
      to: [e.passenger_id],
      data: { bid: e.bid },
      push: () => ({ title: 'New offer for your ride', body: `${e.bid.amount.toFixed(2)} ${e.bid.currency}, ${e.bid.eta_minutes} min away.` }),
    },
  ],

  // Losing bidders learn the outcome, not who won: their copy of the ride has no driver.
  'ride.accepted': (e) => [
    {
      type: 'ride_accepted',
      rideId: e.ride_id,
      to: [e.passenger_id],
      data: { ride: e.ride },
      push: () => ({ title: 'Your ride is confirmed', body: 'Your driver is on the way to the pickup.' }),
    },
    {
      type: 'ride_accepted',
      rideId: e.ride_id,
      to: [e.driver_id],
      data: { ride: e.ride },
      push: () => ({ title: 'Your offer was accepted', body: `Ride ${e.ride.ride_code}: head to the pickup at ${e.ride.pickup.address}.` }),
    },
    {
      type: 'ride_accepted',
      rideId: e.ride_id,
      to: e.rejected_driver_ids.filter((id) => id !== e.driver_id),
      data: { ride: withoutDriver(e.ride), bid_status: 'rejected' },
      push: () => ({ title: 'Ride taken', body: 'The passenger chose another offer.' }),
    },
  ],

  'ride.status_changed': (e) => [
    { type: 'ride_status_changed', rideId: e.ride_id, to: [e.passenger_id], data: { ride: e.ride }, push: () => passengerStatusText(e.ride) },
    { type: 'ride_status_changed', rideId: e.ride_id, to: [e.driver_id], data: { ride: e.ride }, push: () => driverStatusText(e.ride) },
  ],

  'ride.cancelled': (e) => [
    {
      type: 'ride_cancelled',
      rideId: e.ride_id,
      to: [e.passenger_id, e.driver_id],
      data: { ride: e.ride, cancelled_by: e.cancelled_by },
      push: () => ({ title: 'Ride cancelled', body: `The ${e.cancelled_by} cancelled ride ${e.ride.ride_code}.` }),
    },
    {
      type: 'ride_cancelled',
      rideId: e.ride_id,
      to: e.bidder_driver_ids.filter((id) => id !== e.driver_id),
      data: { ride: withoutDriver(e.ride), cancelled_by: e.cancelled_by, bid_status: 'withdrawn' },
      push: () => ({ title: 'Ride cancelled', body: 'A ride you made an offer on was cancelled.' }),
    },
  ],

  // Expiry is a status change (requested → expired); drivers with a live bid get it with their bid withdrawn.
  'ride.expired': (e) => [
    {
      type: 'ride_status_changed',
      rideId: e.ride_id,
      to: [e.passenger_id],
      data: { ride: e.ride },
      push: () => ({ title: 'No driver found', body: 'Your ride request expired. Book again to find a driver.' }),
    },
    {
      type: 'ride_status_changed',
      rideId: e.ride_id,
      to: e.bidder_driver_ids,
      data: { ride: withoutDriver(e.ride), bid_status: 'withdrawn' },
      push: () => ({ title: 'Request expired', body: 'A ride you made an offer on is no longer available.' }),
    },
  ],

  // Only the rated party: the rater knows what they gave (the answer to their POST).
  'ride.rated': (e) => [
    {
      type: 'ride_rated',
      rideId: e.ride_id,
      to: [e.rated_user_id],
      data: { rating: e.rating, ride: e.ride },
      push: () => ({ title: 'You were rated', body: `Ride ${e.ride.ride_code}: ${e.rating.stars} of 5 stars.` }),
    },
  ],
} satisfies LiveRoutes;

/** The events routed here, for the one subscription that handles them all. */
export type RoutedEventName = keyof typeof LIVE_ROUTES;
export type RoutedEvent = DomainEventMap[RoutedEventName];
export const ROUTED_EVENTS = Object.keys(LIVE_ROUTES) as [RoutedEventName, ...RoutedEventName[]];

function passengerStatusText(ride: LiveRide): PushText {
  switch (ride.status) {
    case 'driver_arrived':
      return { title: 'Your driver has arrived', body: 'Meet your driver at the pickup.' };
    case 'started':
      return { title: 'Your ride has started', body: `Heading to ${ride.dropoff.address}.` };
    case 'completed':
      return { title: 'Ride completed', body: `Ride ${ride.ride_code} is complete. Thank you for riding.` };
    default:
      return { title: 'Ride update', body: `Ride ${ride.ride_code} is now ${ride.status.replace(/_/g, ' ')}.` };
  }
}

function driverStatusText(ride: LiveRide): PushText {
  return { title: 'Ride update', body: `Ride ${ride.ride_code} is now ${ride.status.replace(/_/g, ' ')}.` };
}

function withoutDriver(ride: LiveRide): LiveRide {
  return { ...ride, driver: null };
}
