import type { RideMessageView, SenderRole } from './ride-message-view';

/** The chat event, added to the domain events by declaration merging (see ../rides.events.ts). */
declare module '../../../common/events/domain-events' {
  interface DomainEventMap {
    /** A message was stored; its recipient (the other party, never the sender) is told. */
    'ride.message_sent': {
      ride_id: string;
      sender_role: SenderRole;
      recipient_id: number | null;
      message: RideMessageView;
    };
  }
}

/** Events this sub-module publishes. */
export const CHAT_EVENTS = ['ride.message_sent'] as const;
