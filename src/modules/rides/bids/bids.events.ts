/** Events this module publishes (payloads in src/common/events/domain-events.ts). */
export const BID_EVENTS = ['bid.submitted', 'ride.accepted'] as const;
