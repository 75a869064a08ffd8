import { JsonObject } from '../../common/events/domain-events';

/**
 * The messages the live channel sends (CONTRACT section 5). Every event is
 * `{"type", "ride_id", "data", "at"}`; every ride-bearing event carries the ride in `data.ride`
 * exactly as the REST API returns it, so an app can replace its copy of the ride wholesale.
 */
export type RideEventType =
  | 'ride_snapshot'
  | 'ride_requested'
  | 'bid_submitted'
  | 'ride_accepted'
  | 'ride_status_changed'
  | 'ride_cancelled'
  | 'driver_location'
  | 'chat_message'
  | 'ride_tipped'
  | 'ride_rated'
  | 'sos_raised'
  | 'ride_check'
  | 'payment_failed';

export interface RideEventMessage {
  type: RideEventType;
  ride_id: string | null;
  data: JsonObject;
  at: string;
}

/** Codes of the `error` messages sent in answer to a client frame the server will not act on. */
export type ClientFrameErrorCode = 'invalid_message' | 'unknown_message_type' | 'rate_limited';

/** Serialised once per event, then written to every receiving socket as the same string. */
export function rideEventFrame(type: RideEventType, rideId: string | null, data: JsonObject, at = new Date()): string {
  const message: RideEventMessage = { type, ride_id: rideId, data, at: at.toISOString() };
  return JSON.stringify(message);
}

export function pongFrame(): string {
  return JSON.stringify({ type: 'pong', at: new Date().toISOString() });
}

export function errorFrame(code: ClientFrameErrorCode, message: string): string {
  return JSON.stringify({ type: 'error', ride_id: null, data: { code, message }, at: new Date().toISOString() });
}
