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

/** Every operator with a live socket (each instance its own): an audience, not a list of ids. */
export interface Operators {
  readonly operators: true;
}
export const OPERATORS: Operators = { operators: true };

export interface LiveMessage {
  type: RoutedType;
  rideId: string;
  /** User ids (nulls skipped), the matcher's lookup (resolved at most once per message on an instance), or the operators. */
  to: ReadonlyArray<number | null> | DriversNear | Operators;
  data: JsonObject;
  /** Written only when a push goes out, off the socket path. */
  push: () => PushText;
}

/** Longest chat text shown in a notification (FCM caps the whole message at 4 KB). */
const PUSH_PREVIEW_LENGTH = 120;

type Route<K extends DomainEventName> = (event: DomainEventMap[K]) => LiveMessage[];
type LiveRoutes = { readonly [K in DomainEventName]?: Route<K> };

export function isDriversNear(to: LiveMessage['to']): to is DriversNear {
  return !Array.isArray(to) && 'categoryId' in to;
}

export function isOperators(to: LiveMessage['to']): to is Operators {
  return !Array.isArray(to) && 'operators' in to;
}

export const LIVE_ROUTES = {
  'ride.requested': (e) => newRequest(e, () => ({ title: 'New ride request', body: `Pickup: ${e.ride.pickup.address}. Open the app to make an offer.` })),

  // A raised offer is announced like a new request, to the drivers the matcher would tell now (CONTRACT §11).
  'ride.offer_raised': (e) =>
    newRequest(e, () => ({ title: 'Offer raised', body: `Now ${e.ride.offered_fare?.toFixed(2)} ${e.ride.currency}. Pickup: ${e.ride.pickup.address}.` })),

  // A card ride's hold lapsed at Stripe (CONTRACT §13: operators' live sockets); other money changes are not routed.
  'ride.payment_changed': (e) =>
    e.failed
      ? [
          {
            type: 'payment_failed',
            rideId: e.ride_id,
            to: OPERATORS,
            data: { ride: e.ride },
            push: () => ({ title: 'Payment failed', body: `Ride ${e.ride.ride_code}` }),
          },
        ]
      : [],

  'ride.tipped': (e) => [
    {
      type: 'ride_tipped',
      rideId: e.ride_id,
      to: [e.driver_id],
      data: { tip: e.tip, ride: e.ride },
      push: () => ({ title: 'You received a tip', body: `${e.tip.amount.toFixed(2)} ${e.tip.currency} for ride ${e.ride.ride_code}.` }),
    },
  ],

  // A ride booked for later reaching its dispatch time: its passenger sees it requested, and drivers
  // are told about it exactly as about a new request.
  'ride.dispatched': (e) => [
    {
      type: 'ride_status_changed',
      rideId: e.ride_id,
      to: [e.passenger_id],
      data: { ride: e.ride },
      push: () => ({ title: 'Finding your driver', body: `Your ride ${e.ride.ride_code} for later is now looking for a driver.` }),
    },
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

  // The other party only: the sender has the message from its own 201.
  'ride.message_sent': (e) => [
    {
      type: 'chat_message',
      rideId: e.ride_id,
      to: [e.recipient_id],
      data: { message: e.message },
      push: () => ({ title: e.sender_role === 'driver' ? 'Message from your driver' : 'Message from your passenger', body: preview(e.message.text) }),
    },
  ],

  // CONTRACT §14: operators only (the ride as no passenger sees it: no start PIN).
  'sos.raised': (e) => [
    {
      type: 'sos_raised',
      rideId: e.ride.id,
      to: OPERATORS,
      data: { sos: e.sos, ride: e.ride },
      push: () => ({ title: 'SOS raised', body: `Ride ${e.ride.ride_code}: the ${e.sos.raised_by} raised an SOS.` }),
    },
  ],

  'ride.check_requested': (e) => [
    {
      type: 'ride_check',
      rideId: e.ride_id,
      to: [e.passenger_id, e.driver_id],
      data: { reason: e.reason },
      push: () => ({ title: 'Is everything OK?', body: 'Your ride has been stopped for a while. Tap to let us know you are safe.' }),
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

/** ride_requested to the drivers the matcher finds around the pickup at this moment. */
function newRequest(e: DomainEventMap['ride.requested'], push: () => PushText): LiveMessage[] {
  return [{ type: 'ride_requested', rideId: e.ride_id, to: { categoryId: e.vehicle_category_id, point: e.pickup }, data: { ride: e.ride }, push }];
}

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

/** A chat message as a notification line: the start of its text. */
function preview(text: string): string {
  if (text.length <= PUSH_PREVIEW_LENGTH) return text;
  // By code point, so that an emoji is never cut in half.
  const points = [...text];
  return points.length <= PUSH_PREVIEW_LENGTH ? text : `${points.slice(0, PUSH_PREVIEW_LENGTH - 1).join('')}…`;
}

function withoutDriver(ride: LiveRide): LiveRide {
  return { ...ride, driver: null };
}
