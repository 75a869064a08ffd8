/**
 * Events this module publishes, added to the domain events by declaration merging (the bus in
 * common/ knows no module). driver.location_updated's payload is in common/events/domain-events.ts.
 */
declare module '../../common/events/domain-events' {
  interface DomainEventMap {
    /** The driver's public vehicle profile changed: every instance forgets the rides showing it. */
    'driver.profile_changed': { user_id: number };
    /** Approval or online status changed: every instance forgets its cached record of the driver. */
    'driver.availability_changed': { user_id: number };
  }
}

export const DRIVER_EVENTS = ['driver.location_updated', 'driver.profile_changed', 'driver.availability_changed'] as const;
