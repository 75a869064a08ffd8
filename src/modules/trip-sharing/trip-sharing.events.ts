/** The trip-sharing events, added to the domain events by declaration merging (the bus in common/ knows no module). */
declare module '../../common/events/domain-events' {
  interface DomainEventMap {
    /** The passenger ended every share link of the ride: every instance forgets the links it cached. */
    'ride.share_ended': { ride_id: string };
  }
}

export const TRIP_SHARING_EVENTS = ['ride.share_ended'] as const;
