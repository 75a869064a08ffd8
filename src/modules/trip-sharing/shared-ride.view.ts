import type { RideResponseDto as RideView } from '../rides/dto/ride-response.dto';
import { ASSIGNED_STATUSES, RideStatus } from '../rides/ride-status';

/** A link lives on this long after its ride is final (CONTRACT §11). */
export const SHARE_AFTER_END_MS = 30 * 60_000;

type Place = { address: string; latitude: number; longitude: number };

export interface SharedDriverView {
  first_name: string | null;
  vehicle_make: string | null;
  vehicle_model: string | null;
  vehicle_color: string | null;
  vehicle_plate: string | null;
  rating: number | null;
}

/**
 * What GET /shared-rides/{token} shows (SharedRideResponseDto describes it), exactly CONTRACT §11's
 * fields: enough to follow the trip and recognise the car, never a phone, an e-mail, a user id or
 * the passenger's name. Built by picking fields, so a field added to the ride does not leak here.
 */
export interface SharedRideView {
  status: RideStatus;
  pickup: Place;
  dropoff: Place;
  driver: SharedDriverView | null;
  driver_location: { latitude: number; longitude: number; at: string } | null;
  updated_at: string;
}

/** The part of a shared ride that changes only with ride events (cached), and what the live part needs. */
export interface SharedRide {
  rideId: string;
  driverId: number | null;
  /** The driver's position is shown only while a driver is assigned and the ride is not over. */
  live: boolean;
  /** When the ride's links end (its final time + 30 min, ms since the epoch); null while not final. */
  endsAt: number | null;
  view: Omit<SharedRideView, 'driver_location'>;
}

const ASSIGNED: readonly string[] = ASSIGNED_STATUSES;

/** The ride's final time: the stamp of the status that ended it (an expired request ends at expires_at). */
function finalAt(ride: RideView): string | null {
  switch (ride.status) {
    case 'completed':
      return ride.completed_at;
    case 'cancelled':
      return ride.cancelled_at;
    case 'expired':
      return ride.expires_at;
    default:
      return null;
  }
}

export function sharedRideOf(ride: RideView): SharedRide {
  const final = finalAt(ride);
  const d = ride.driver;
  const place = (p: Place): Place => ({ address: p.address, latitude: p.latitude, longitude: p.longitude });
  return {
    rideId: ride.id,
    driverId: d?.id ?? null,
    live: ASSIGNED.includes(ride.status),
    endsAt: final === null ? null : new Date(final).getTime() + SHARE_AFTER_END_MS,
    view: {
      status: ride.status,
      pickup: place(ride.pickup),
      dropoff: place(ride.dropoff),
      driver: d
        ? {
            first_name: d.first_name,
            vehicle_make: d.vehicle.make,
            vehicle_model: d.vehicle.model,
            vehicle_color: d.vehicle.color,
            vehicle_plate: d.vehicle.plate,
            rating: d.rating,
          }
        : null,
      updated_at: ride.updated_at,
    },
  };
}

/** A new link's answer (ShareLinkResponseDto describes it). */
export interface ShareLinkView {
  token: string;
  url: string;
  /** null until the ride is final (a link is only made for a ride that is not). */
  expires_at: string | null;
}
