import { CommonError } from '../../../common/errors/common.errors';
import { ASSIGNED_STATUSES, RIDE_STATUSES, RideStatus } from '../ride-status';
import { RideError } from '../rides.errors';
import { partyMayAct, RidePartyRule, statusRefusal } from '../transitions/ride-transitions';
import { partyOf } from '../transitions/ride-transitions.service';
import { ChatError, ChatErrorCode } from './ride-chat.errors';
import type { SenderRole } from './ride-message-view';

/** Longest message, in characters (Unicode code points, as PostgreSQL counts them), after trimming. */
export const MESSAGE_MAX_CHARACTERS = 1000;
/** The 400's message for a text outside that (also the OpenAPI example's). */
export const MESSAGE_LENGTH_REFUSAL = `text must be 1 to ${MESSAGE_MAX_CHARACTERS} characters after trimming`;

/**
 * Who may chat on a ride, stated as the transition table states its commands (the same parties,
 * the same 404 for anyone not listed, the same 409 from another status): only the passenger and
 * the assigned driver; sending while a driver is assigned and the ride is not over, reading always.
 */
export const RIDE_CHAT_RULES = {
  send: { from: { passenger: ASSIGNED_STATUSES, driver: ASSIGNED_STATUSES }, refusal: 'CHAT_CLOSED' },
  read: { from: { passenger: RIDE_STATUSES, driver: RIDE_STATUSES }, refusal: 'CHAT_CLOSED' },
} as const satisfies Record<string, RidePartyRule<ChatErrorCode>>;

export type ChatAct = keyof typeof RIDE_CHAT_RULES;

/** What the rules need of a ride: its two parties and its status. */
export interface ChatRide {
  passenger_id: number | null;
  driver_id: number | null;
  status: RideStatus;
}

/** The caller's side of the ride if the rules let them `act` on it; else 404 (not theirs) or 409 (wrong status). */
export function chatSideOf(act: ChatAct, ride: ChatRide | undefined, user: { id: number }): SenderRole {
  const rule: RidePartyRule<ChatErrorCode> = RIDE_CHAT_RULES[act];
  const party = ride ? partyOf(ride, user) : undefined;
  if (!ride || !partyMayAct(rule, party)) throw new RideError('RIDE_NOT_FOUND');
  const refusal = statusRefusal(rule, party, ride.status);
  if (refusal !== null) throw new ChatError(refusal);
  // The rules list only these two parties.
  return party as SenderRole;
}

/** The text as stored: trimmed, 1 to MESSAGE_MAX_CHARACTERS characters (400 otherwise). */
export function messageText(raw: string): string {
  const text = raw.trim();
  // A code point is at most two UTF-16 units: only a string this long needs counting.
  const tooLong = text.length > MESSAGE_MAX_CHARACTERS && (text.length > 2 * MESSAGE_MAX_CHARACTERS || [...text].length > MESSAGE_MAX_CHARACTERS);
  if (text.length === 0 || tooLong) {
    throw CommonError.validation('text', MESSAGE_LENGTH_REFUSAL);
  }
  return text;
}
