/** Events this module publishes (payloads in src/common/events/domain-events.ts). */
export const RIDE_EVENTS = ['ride.requested', 'ride.status_changed', 'ride.cancelled', 'ride.expired'] as const;
