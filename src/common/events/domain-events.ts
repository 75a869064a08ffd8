/**
 * Every domain event a service may publish, by name, with its payload. Payloads are plain JSON
 * (they cross Redis between instances) and carry what a subscriber needs to route them without
 * reading the database again. Modules add their own events by declaration merging (the ride and
 * bid events in modules/rides/rides.events.ts and rides/bids/bids.events.ts), so common/ knows none.
 */
export type JsonObject = Record<string, unknown>;

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

export interface DomainEventMap {
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

/** Which event a handler is called for, and how it reached this instance. */
export interface EventMeta {
  readonly name: DomainEventName;
  /**
   * Published on this instance (exactly one instance per event, whatever the bus): work that must
   * happen once across instances (a push notification) is done where this is true.
   */
  readonly local: boolean;
}

export type DomainEventHandler<K extends DomainEventName> = (payload: DomainEventMap[K], meta: EventMeta) => void | Promise<void>;
