/** The pricing events, added to the domain events by declaration merging (the bus in common/ knows no module). */
declare module '../../common/events/domain-events' {
  interface DomainEventMap {
    /** The vehicle_categories table was edited (fares, activity): every instance reloads the categories. */
    'vehicle_categories.changed': Record<string, never>;
  }
}

/** Events this module publishes. */
export const PRICING_EVENTS = ['vehicle_categories.changed'] as const;
