/** Events this module publishes (payloads in src/common/events/domain-events.ts). */
export const DRIVER_EVENTS = ['driver.location_updated'] as const;
