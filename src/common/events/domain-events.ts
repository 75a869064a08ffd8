/**
 * Every domain event a service may publish, by name, with its payload. Payloads are plain JSON
 * (they cross Redis between instances) and carry what a subscriber needs to route them without
 * reading the database again. `ride` is the ride exactly as the REST API returns it.
 */
export type JsonObject = Record<string, unknown>;

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

export interface DomainEventMap {
  'ride.requested': {
    ride_id: string;
    passenger_id: number;
    vehicle_category_id: number;
    pickup: GeoPoint;
    ride: JsonObject;
  };
  'bid.submitted': {
    ride_id: string;
    passenger_id: number;
    driver_id: number;
    bid: JsonObject;
  };
  'ride.accepted': {
    ride_id: string;
    passenger_id: number;
    driver_id: number;
    rejected_driver_ids: number[];
    ride: JsonObject;
  };
  'ride.status_changed': {
    ride_id: string;
    passenger_id: number | null;
    driver_id: number | null;
    status: string;
    ride: JsonObject;
  };
  'ride.cancelled': {
    ride_id: string;
    passenger_id: number | null;
    driver_id: number | null;
    /** Drivers whose bids were live when the ride was cancelled (now withdrawn). */
    bidder_driver_ids: number[];
    cancelled_by: 'passenger' | 'driver';
    ride: JsonObject;
  };
  'ride.expired': {
    ride_id: string;
    passenger_id: number | null;
    bidder_driver_ids: number[];
    ride: JsonObject;
  };
  'driver.location_updated': {
    ride_id: string;
    passenger_id: number;
    driver_id: number;
    location: GeoPoint & { heading: number | null; speed: number | null; accuracy: number | null; at: string };
  };
  /** The user may no longer hold sessions (blocked or deleted): live connections are closed. */
  'user.access_revoked': { user_id: number; reason: 'blocked' | 'deleted' | 'deactivated' };
}

export type DomainEventName = keyof DomainEventMap;

export type DomainEventHandler<K extends DomainEventName> = (payload: DomainEventMap[K]) => void | Promise<void>;
