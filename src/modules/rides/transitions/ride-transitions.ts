import type { DomainEventName } from '../../../common/events/domain-events';
import { NON_FINAL_STATUSES, RideStatus, sqlStatusList } from '../ride-status';
import type { RideErrorCode } from '../rides.errors';

/**
 * How the one acting stands to the ride: its passenger, its assigned driver, the platform (a sweep),
 * an operator of the service (CONTRACT §13), or any other user (a driver bidding on a request).
 */
export type RideParty = 'passenger' | 'driver' | 'system' | 'operator' | 'other';

/** A ride time the table judges commands by: a request's end, a scheduled ride's dispatch time. */
export type RideClock = 'expires_at' | 'dispatch_at';

/** Ride columns a status stamps with the time it was reached. */
export type RideStamp = 'accepted_at' | 'arrived_at' | 'started_at' | 'completed_at' | 'cancelled_at';

/**
 * Who may act on a ride, and from which statuses (`null`: the ride does not exist yet). A party
 * missing from `from` is told the ride does not exist (404); a party listed, from another status,
 * gets `refusal` (409). Every command states one; so do acts that change no ride (chat/).
 */
export interface RidePartyRule<E extends string = RideErrorCode> {
  from: Partial<Record<RideParty, readonly (RideStatus | null)[]>>;
  refusal: E;
}

export interface RideTransitionRule extends RidePartyRule {
  /** The status the command leads to; none: the command leaves the status as it is (a bid). */
  to?: RideStatus;
  /** Refused once this time has passed (nobody takes a request whose time is up). */
  open?: RideClock;
  /** Applies only once this time has passed: a sweep of the platform's, run in batches. */
  due?: RideClock;
  /** The column set to the time of the change. */
  stamp?: RideStamp;
  /** The ride's pending bids are withdrawn with the change (their drivers are told). */
  withdrawsBids?: true;
  /** The ride row's lock: exclusive, or shared by commands that may run side by side (bids). */
  lock?: 'update' | 'share';
  /** Announced after the commit; none for a row that only ever refuses. */
  event?: DomainEventName;
}

/**
 * Every command on a ride. RideTransitionsService applies them, each through its handler
 * (transitions/handlers/, bids/): the lock, who may act from which status, the status write and its
 * stamp, the withdrawn bids, the ride_events row and the event all come from this table.
 */
export const RIDE_TRANSITIONS = {
  book: { to: 'requested', from: { passenger: [null] }, refusal: 'ACTIVE_RIDE_EXISTS', event: 'ride.requested' },
  // Booking with a pickup_at (ride later): the ride waits, not live, offered to no driver until dispatched.
  schedule: { to: 'scheduled', from: { passenger: [null] }, refusal: 'SCHEDULED_RIDE_LIMIT', event: 'ride.scheduled' },
  // DISPATCH_LEAD_MINUTES before pickup_at the platform opens it to bids, matched like a new request.
  dispatch: { to: 'requested', from: { system: ['scheduled'] }, refusal: 'INVALID_STATUS_TRANSITION', due: 'dispatch_at', event: 'ride.dispatched' },
  // A driver's offer changes no status; the ride's own (former) driver is refused like any late bidder.
  bid: { from: { other: ['requested'], driver: [] }, refusal: 'RIDE_NOT_REQUESTED', open: 'expires_at', lock: 'share', event: 'bid.submitted' },
  accept: {
    to: 'accepted',
    from: { passenger: ['requested'] },
    refusal: 'RIDE_NOT_REQUESTED',
    open: 'expires_at',
    stamp: 'accepted_at',
    event: 'ride.accepted',
  },
  arrive: { to: 'driver_arrived', from: { driver: ['accepted'] }, refusal: 'INVALID_STATUS_TRANSITION', stamp: 'arrived_at', event: 'ride.status_changed' },
  start: { to: 'started', from: { driver: ['driver_arrived'] }, refusal: 'INVALID_STATUS_TRANSITION', stamp: 'started_at', event: 'ride.status_changed' },
  complete: { to: 'completed', from: { driver: ['started'] }, refusal: 'INVALID_STATUS_TRANSITION', stamp: 'completed_at', event: 'ride.status_changed' },
  // PUT /rides/{id}/status naming a status no driver step reaches: refused to the ride's driver.
  no_step: { from: { driver: [] }, refusal: 'INVALID_STATUS_TRANSITION' },
  cancel: {
    to: 'cancelled',
    // An operator may end any ride that is not over (no fee: the passenger did not choose it).
    from: { passenger: ['scheduled', 'requested', 'accepted', 'driver_arrived'], driver: ['accepted', 'driver_arrived'], operator: NON_FINAL_STATUSES },
    refusal: 'RIDE_NOT_CANCELLABLE',
    stamp: 'cancelled_at',
    withdrawsBids: true,
    event: 'ride.cancelled',
  },
  // The driver waited NO_SHOW_WAIT_SECONDS after arriving (the handler judges the wait): cancelled by the driver, the fee charged.
  no_show: {
    to: 'cancelled',
    from: { driver: ['driver_arrived'] },
    refusal: 'INVALID_STATUS_TRANSITION',
    stamp: 'cancelled_at',
    withdrawsBids: true,
    event: 'ride.cancelled',
  },
  // The passenger names a higher price while drivers bid: no status change; the request is announced again.
  raise_offer: { from: { passenger: ['requested'] }, refusal: 'RIDE_NOT_REQUESTED', open: 'expires_at', event: 'ride.offer_raised' },
  // Once, within 24 h of completion (the handler judges the window and a tip already paid).
  tip: { from: { passenger: ['completed'] }, refusal: 'RIDE_NOT_COMPLETED', event: 'ride.tipped' },
  // A rating changes no status: each side once (the handler), within RATING_WINDOW_DAYS of completion.
  rate: { from: { passenger: ['completed'], driver: ['completed'] }, refusal: 'RIDE_NOT_COMPLETED', event: 'ride.rated' },
  expire: { to: 'expired', from: { system: ['requested'] }, refusal: 'RIDE_NOT_REQUESTED', due: 'expires_at', withdrawsBids: true, event: 'ride.expired' },
} as const satisfies Record<string, RideTransitionRule>;

export type RideTransitions = typeof RIDE_TRANSITIONS;
export type RideCommandType = keyof RideTransitions;
/** The event a command announces. */
export type EventOf<K extends RideCommandType> = RideTransitions[K] extends { event: infer E extends DomainEventName } ? E : never;
/** The platform's sweeps: commands only the system applies, to every ride that is due. */
export type SweepCommandType = { [K in RideCommandType]: RideTransitions[K] extends { due: RideClock } ? K : never }[RideCommandType];

export function ruleOf(type: RideCommandType): RideTransitionRule {
  return RIDE_TRANSITIONS[type];
}

/** The driver's one-step-forward commands (PUT /rides/{id}/status), by the status each reaches. */
export const DRIVER_STEPS = ['arrive', 'start', 'complete'] as const satisfies readonly RideCommandType[];
export type DriverStep = (typeof DRIVER_STEPS)[number];

/** The driver step that reaches `to`, if any. */
export function driverStepTo(to: RideStatus): DriverStep | undefined {
  return DRIVER_STEPS.find((step) => RIDE_TRANSITIONS[step].to === to);
}

/** The ride as the table sees it: its status (null before it exists) and which of its times have passed. */
export interface RideState {
  status: RideStatus | null;
  past: Partial<Record<RideClock, boolean>>;
}

/** Whether `party` may apply the command at all: if not, the ride does not exist for them. */
export function mayAct(type: RideCommandType, party: RideParty | undefined): party is RideParty {
  return partyMayAct(ruleOf(type), party);
}

/** Whether the rule lets `party` act at all: if not, the ride does not exist for them. */
export function partyMayAct(rule: Pick<RidePartyRule<string>, 'from'>, party: RideParty | undefined): party is RideParty {
  return party !== undefined && rule.from[party] !== undefined;
}

/** The rule's refusal for `party` acting on a ride in `status`, or null when the rule allows it. */
export function statusRefusal<E extends string>(rule: RidePartyRule<E>, party: RideParty, status: RideStatus | null): E | null {
  const from = rule.from[party];
  return !from || !from.includes(status) ? rule.refusal : null;
}

/** The refusal for `party` applying the command to a ride in `state`, or null when the table allows it. */
export function refusalOf(type: RideCommandType, party: RideParty, state: RideState): RideErrorCode | null {
  const rule = ruleOf(type);
  const byStatus = statusRefusal(rule, party, state.status);
  if (byStatus !== null) return byStatus;
  if (rule.open && state.past[rule.open]) return rule.refusal;
  if (rule.due && !state.past[rule.due]) return rule.refusal;
  return null;
}

/** Every clock some command is judged by (the lock query reports each as passed or not). */
export const RIDE_CLOCKS: readonly RideClock[] = [
  ...new Set(Object.values(RIDE_TRANSITIONS as Record<string, RideTransitionRule>).flatMap((r) => [r.open, r.due].filter((c) => c !== undefined))),
];

/**
 * The SQL condition (over `alias`) under which `party` may apply the command, by status and time:
 * queries that look for rides a command could take (nearby requests for a bidder, the rides a sweep
 * is due to take) say it through the table instead of restating statuses.
 */
export function sqlAllowing(type: RideCommandType, party: RideParty, alias: string): string {
  const rule = ruleOf(type);
  const statuses = (rule.from[party] ?? []).filter((s): s is RideStatus => s !== null);
  if (statuses.length === 0) return 'false';
  const conditions = [statuses.length === 1 ? `${alias}.status = '${statuses[0]}'` : `${alias}.status IN ${sqlStatusList(statuses)}`];
  if (rule.open) conditions.push(`${alias}.${rule.open} > now()`);
  if (rule.due) conditions.push(`${alias}.${rule.due} <= now()`);
  return conditions.join(' AND ');
}

/**
 * The SQL condition under which the party named by `${alias}.party` may apply the command to the
 * ride row `alias`: the same judgement as mayAct and refusalOf, for a statement that checks and
 * writes at once (RideStepsRepository).
 */
export function sqlPartyAllowing(type: RideCommandType, alias: string): string {
  const rule = ruleOf(type);
  const parties = Object.keys(rule.from) as RideParty[];
  const branches = parties.map((party) => `WHEN '${party}' THEN ${sqlAllowing(type, party, alias)}`);
  return branches.length === 0 ? 'false' : `(CASE ${alias}.party ${branches.join(' ')} ELSE false END)`;
}

/** The status part of a party rule (chat/ states its acts so) as SQL over `${alias}.party` and `${alias}.status`. */
export function sqlRuleAllowing(rule: Pick<RidePartyRule<string>, 'from'>, alias: string): string {
  const branches = Object.entries(rule.from).map(([party, from]) => {
    const statuses = (from ?? []).filter((s): s is RideStatus => s !== null);
    return `WHEN '${party}' THEN ${statuses.length === 0 ? 'false' : `${alias}.status IN ${sqlStatusList(statuses)}`}`;
  });
  return branches.length === 0 ? 'false' : `(CASE ${alias}.party ${branches.join(' ')} ELSE false END)`;
}

type FromStatus<K extends RideCommandType> = {
  [P in keyof RideTransitions[K]['from']]: RideTransitions[K]['from'][P] extends readonly (infer S)[] ? S : never;
}[keyof RideTransitions[K]['from']];
/** Commands that create the ride (allowed from `null`). */
export type CreateCommandType = { [K in RideCommandType]: null extends FromStatus<K> ? K : never }[RideCommandType];
