/**
 * Events this module publishes, added to the domain events by declaration merging (the bus in
 * common/ knows no module). driver.location_updated's payload is in common/events/domain-events.ts.
 */
declare module '../../common/events/domain-events' {
  interface DomainEventMap {
    /**
     * The driver's public vehicle profile changed: every instance forgets the rides showing it, and
     * the matcher takes the category.
     */
    'driver.profile_changed': { user_id: number; vehicle_category_id: number | null };
    /**
     * Approval or online status changed: every instance forgets its cached record of the driver and
     * the matcher takes the new state (the row as committed, so the event alone is enough).
     */
    'driver.availability_changed': { user_id: number; is_online: boolean; approved: boolean; vehicle_category_id: number | null };
    /**
     * The heartbeats one instance answered since its last report (parallel arrays, epoch ms), so
     * every instance's matcher holds every driver's position. Sent once per turn of the event loop
     * at most, and only when there are other instances (Redis).
     */
    'driver.positions_reported': { driver_ids: number[]; latitudes: number[]; longitudes: number[]; at_ms: number[] };
  }
}

export const DRIVER_EVENTS = ['driver.location_updated', 'driver.profile_changed', 'driver.availability_changed', 'driver.positions_reported'] as const;
