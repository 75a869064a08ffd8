import type { RideStatus } from './ride-status';
import type { RideErrorCode } from './rides.errors';

/** How the one acting stands to the ride: its passenger, its assigned driver, or the platform (expiry). */
export type RideParty = 'passenger' | 'driver' | 'system';

/** The ride events, one per transition (payloads in rides.events.ts and bids/bids.events.ts). */
export type RideTransitionEvent = 'ride.requested' | 'ride.accepted' | 'ride.status_changed' | 'ride.cancelled' | 'ride.expired';

export interface RideTransitionRule {
  to: RideStatus;
  /**
   * Who may apply the command, and from which statuses (`null`: the ride does not exist yet). A
   * party missing here is told the ride does not exist (404); a party listed, from another status,
   * gets `refusal` (409).
   */
  from: Partial<Record<RideParty, readonly (RideStatus | null)[]>>;
  refusal: RideErrorCode;
  /**
   * For a requested ride whose expires_at has passed: `open` commands refuse it (nobody may take a
   * ride whose time is up), `due` commands take only such rides.
   */
  expiry?: 'open' | 'due';
  event: RideTransitionEvent;
}

/** Every way a ride changes status. RideTransitionsService.apply is the only code that writes one. */
export const RIDE_TRANSITIONS = {
  book: { to: 'requested', from: { passenger: [null] }, refusal: 'ACTIVE_RIDE_EXISTS', event: 'ride.requested' },
  accept: { to: 'accepted', from: { passenger: ['requested'] }, refusal: 'RIDE_NOT_REQUESTED', expiry: 'open', event: 'ride.accepted' },
  arrive: { to: 'driver_arrived', from: { driver: ['accepted'] }, refusal: 'INVALID_STATUS_TRANSITION', event: 'ride.status_changed' },
  start: { to: 'started', from: { driver: ['driver_arrived'] }, refusal: 'INVALID_STATUS_TRANSITION', event: 'ride.status_changed' },
  complete: { to: 'completed', from: { driver: ['started'] }, refusal: 'INVALID_STATUS_TRANSITION', event: 'ride.status_changed' },
  cancel: {
    to: 'cancelled',
    from: { passenger: ['requested', 'accepted', 'driver_arrived'], driver: ['accepted', 'driver_arrived'] },
    refusal: 'RIDE_NOT_CANCELLABLE',
    event: 'ride.cancelled',
  },
  expire: { to: 'expired', from: { system: ['requested'] }, refusal: 'RIDE_NOT_REQUESTED', expiry: 'due', event: 'ride.expired' },
} as const satisfies Record<string, RideTransitionRule>;

export type RideCommandType = keyof typeof RIDE_TRANSITIONS;

/** The driver's one-step-forward commands (PUT /rides/{id}/status), by the status each reaches. */
export const DRIVER_STEPS = ['arrive', 'start', 'complete'] as const satisfies readonly RideCommandType[];
export type DriverStep = (typeof DRIVER_STEPS)[number];

/** The driver step that reaches `to`, if any. */
export function driverStepTo(to: RideStatus): DriverStep | undefined {
  return DRIVER_STEPS.find((step) => RIDE_TRANSITIONS[step].to === to);
}

/** The ride as the table sees it: its status (null before it exists) and whether its request time is up. */
export interface RideState {
  status: RideStatus | null;
  pastExpiry: boolean;
}

/** Whether `party` may apply the command at all: if not, the ride does not exist for them. */
export function mayAct(type: RideCommandType, party: RideParty | undefined): party is RideParty {
  const rule: RideTransitionRule = RIDE_TRANSITIONS[type];
  return party !== undefined && rule.from[party] !== undefined;
}

/** The refusal for `party` applying the command to a ride in `state`, or null when the table allows it. */
export function refusalOf(type: RideCommandType, party: RideParty, state: RideState): RideErrorCode | null {
  const rule: RideTransitionRule = RIDE_TRANSITIONS[type];
  const from = rule.from[party];
  if (!from || !from.includes(state.status)) return rule.refusal;
  if (rule.expiry === 'open' && state.pastExpiry) return rule.refusal;
  if (rule.expiry === 'due' && !state.pastExpiry) return rule.refusal;
  return null;
}
