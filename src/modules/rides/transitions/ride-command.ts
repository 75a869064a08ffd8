import type { EntityManager } from 'typeorm';
import type { DomainEventMap } from '../../../common/events/domain-events';
import type { BidView } from '../bids/bid-view';
import type { RideRatingView } from '../ratings/ride-rating.view';
import type { RideView } from '../read-models/ride-view';
import type { TipView } from '../tips/tip-view';
import type { RideStatus } from '../ride-status';
import { DriverStep, driverStepTo, EventOf, RideCommandType, RideParty, SweepCommandType } from './ride-transitions';
import type { StepColumns } from './ride-steps.repository';
import type { LockedRide, NewRide, RideColumns } from './ride-writes.repository';

/** A new ride as booking prices it; the transition adds its id, code, currency and time to live. */
export type RideRequest = Omit<NewRide, 'id' | 'rideCode' | 'passengerId' | 'currency' | 'ttlMinutes' | 'pickupAt' | 'dispatchAt'>;

/** Each command with what it carries (its row in RIDE_TRANSITIONS says who, from where, to what). */
export type RideCommand =
  | { type: 'book'; ride: RideRequest }
  | { type: 'schedule'; ride: RideRequest; pickupAt: string }
  | { type: 'bid'; amountMinor: number; etaMinutes: number; driverCategoryId: number | null }
  // `hold`: set by the handler's prepare step (a card ride's fare held before the ride is locked).
  | { type: 'accept'; bidId: string; hold?: { amountMinor: number } }
  | { type: Exclude<DriverStep, 'start'> }
  | { type: 'start'; pin?: string }
  | { type: 'no_step'; to: RideStatus }
  | { type: 'cancel'; reason: string | null }
  | { type: 'no_show' }
  | { type: 'raise_offer'; offeredFareMinor: number }
  // `charged`: set by the handler's prepare step (a card ride's tip charged before the ride is locked).
  | { type: 'tip'; amountMinor: number; charged?: true }
  | { type: 'rate'; stars: number; comment: string | null }
  | { type: 'expire' }
  | { type: 'dispatch' };

/** PUT /rides/{id}/status: the driver step that reaches `to`, or the row that refuses a status no step reaches. */
export function driverStep(to: RideStatus, pin?: string): CommandOf<DriverStep> | { type: 'no_step'; to: RideStatus } {
  const step = driverStepTo(to);
  if (step === 'start') return pin === undefined ? { type: step } : { type: step, pin };
  return step ? { type: step } : { type: 'no_step', to };
}

export type CommandOf<K extends RideCommandType> = Extract<RideCommand, { type: K }>;
export type UserCommandType = Exclude<RideCommandType, SweepCommandType>;
export type UserCommand = Extract<RideCommand, { type: UserCommandType }>;

/** What a command answers with: the ride as the API shows it, or, for a bid, the bid, for a tip, the tip, for a rating, the rating. */
export type ResultOf<K extends RideCommandType> = K extends 'bid' ? BidView : K extends 'tip' ? TipView : K extends 'rate' ? RideRatingView : RideView;

/**
 * Who acts: a user (their relation to the ride decides what they may do), an operator acting for the
 * service (`operator: true`, whatever their relation to the ride), or the platform.
 */
export type RideActor = { id: number; operator?: true } | 'system';

/** The transaction a command runs in, for the repositories its handler and hooks call. */
export type RideTx = EntityManager;

export type PendingEvent<E extends keyof DomainEventMap = keyof DomainEventMap> = { [N in E]: { name: N; payload: DomainEventMap[N] } }[E];

/**
 * What a handler hands back: the answer, and the table's event for it (none: nothing to announce);
 * or a refusal thrown once the transaction has committed, so that what the handler wrote to record
 * it stays (a wrong start PIN counts towards the lock).
 */
export type CommandOutcome<K extends RideCommandType> = { result: ResultOf<K>; event?: PendingEvent<EventOf<K>> } | { refusal: Error };

/** Steps the caller adds to a command's transaction, around the handler. */
export interface TransitionHooks {
  /** First in the transaction; a ride returned here is the answer, and the command is not applied (an idempotent replay). */
  before?(tx: RideTx): Promise<RideView | undefined>;
  /** Last in the transaction, with the command's answer. */
  after?(tx: RideTx, ride: RideView): Promise<void>;
}

/** What the engine hands a handler for a ride that exists: the ride locked, the table's check passed. */
export interface ChangeContext<K extends RideCommandType> {
  readonly command: CommandOf<K>;
  readonly actor: RideActor;
  readonly party: RideParty;
  readonly ride: LockedRide;
  readonly tx: RideTx;
  /**
   * Writes the table's change: the status, its stamp and `set`, the withdrawn bids and the
   * ride_events row. False when a unique index refused it (the transaction must then end).
   */
  changeStatus(set?: RideColumns, reason?: string | null): Promise<boolean>;
  /** The drivers whose pending bids changeStatus withdrew (rules with withdrawsBids). */
  readonly withdrawnBidders: number[];
  /** The ride as the API shows it, read in the transaction. */
  view(): Promise<RideView>;
}

/** What the engine hands a handler that creates the ride (a command from `null`). */
export interface CreateContext<K extends RideCommandType> {
  readonly command: CommandOf<K>;
  readonly actor: { id: number };
  readonly rideId: string;
  readonly tx: RideTx;
  /**
   * Inserts the ride in the table's status with its ride_events row, in one statement: the ride as
   * the API shows it, or none when refused (`live`: the passenger has a live ride and `unlessLive`
   * was asked; else a unique index refused it, as a taken ride code).
   */
  insert(ride: NewRide, unlessLive: boolean): Promise<{ live: boolean; view?: RideView }>;
}

/**
 * One command's own part. The engine (RideTransitionsService) locks, judges the table, writes the
 * status and publishes after the commit; a handler adds the checks and writes only its command has.
 */
export interface RideCommandHandler<K extends RideCommandType, Located = void> {
  /** Before any lock: input that cannot name anything (a bid id that is no UUID). */
  validate?(command: CommandOf<K>): void;
  /**
   * Before the transaction, outside it: a provider call the command needs, which must never keep
   * the ride's row lock waiting (accept: the card hold). Answers the command as run will see it;
   * when the transaction then fails, undo gets that command to take the step back.
   */
  prepare?(rideId: string, command: CommandOf<K>, actor: RideActor): Promise<CommandOf<K>>;
  undo?(rideId: string, prepared: CommandOf<K>): Promise<void>;
  /** With the ride locked and the actor entitled, before the table judges the status (accept: the bid must be this ride's). */
  locate?(ctx: ChangeContext<K>): Promise<Located>;
  run(ctx: ChangeContext<K>, located: Located): Promise<CommandOutcome<K>>;
}

/** What a step's event is built from: the ride as locked before the change, and after it. */
export interface StepDone<K extends RideCommandType> {
  readonly command: CommandOf<K>;
  readonly party: RideParty;
  readonly ride: LockedRide;
  readonly view: RideView;
  readonly withdrawnBidders: number[];
  /** The rows the handler's `also` statement part returned (accept: the bids it settled). */
  readonly also: ReadonlyArray<Record<string, unknown>>;
}

/**
 * A command that is the table's change (and what `also` adds to its statement): the engine applies it
 * as one statement (RideStepsRepository.step: lock, judge, write, ride_events row, view), committed by
 * itself unless hooks or `inTransaction` need a transaction around it. A command whose handler must
 * read or write before the change uses `run`; one that offers both takes the step where `onlyWhere`
 * holds (its steady state) and `run` elsewhere, which judges and refuses precisely. A handler's
 * `prepare` runs before either, and its `undo` when neither goes through.
 */
export interface RideStepHandler<K extends RideCommandType> {
  /** Columns the change writes beside the status: values, or columns of the source row (`{ src: column }`). */
  columns?(command: CommandOf<K>): StepColumns;
  /** The ride_events row's reason. */
  reason?(command: CommandOf<K>): string | null;
  /**
   * A row the change reads beside the ride (accept: the bid and what it takes), the body of a CTE
   * `src` over the locked ride `l`: at most one row; columns, onlyWhere and also may read it.
   */
  source?(command: CommandOf<K>, param: (value: unknown) => string): string;
  /**
   * SQL over the locked ride `l` (its columns, `l.party`; `src`) under which the step applies; on any
   * other ride the statement writes nothing and the command takes the handler's `run` form instead
   * (a card or wallet ride's cancel: money to settle before the change). Needs `run`. A function
   * when it needs the command's values (`param` adds a parameter).
   */
  readonly onlyWhere?: string | ((command: CommandOf<K>, param: (value: unknown) => string) => string);
  /**
   * The statement takes the ride only if nobody holds its lock; a ride somebody holds goes to `run`,
   * which waits for it. For a step that reads rows beside the ride (accept: the ride's bids): a
   * statement's snapshot is taken before it locks, so waiting would hide what the holder committed
   * (a bid placed meanwhile). Needs `run`. Implied for a step whose rule withdraws the ride's bids (cancel).
   */
  readonly nowait?: true;
  /** A further write of the same statement, a CTE reading `changed` (the ride as changed); `param` adds a parameter. */
  also?(param: (value: unknown) => string): string;
  /**
   * Work that needs the transaction after the statement (another module's writes through its
   * service); with it the step runs in a transaction: BEGIN, the statement, this, COMMIT. A throw rolls all back.
   */
  inTransaction?(tx: RideTx, done: StepDone<K>): Promise<void>;
  event(done: StepDone<K>): PendingEvent<EventOf<K>>;
}

/**
 * A command that changes no ride (a bid, a tip, a rating), as one statement: the engine locks the
 * ride as its row says (`l`, with the actor's `party`), `act` adds CTEs (the last named `act`,
 * returning one row) that write only where `allowed` (the row's status and time rules in SQL) holds
 * and what else the command checks holds; `settle` then refuses as the command's own checks would,
 * or answers. Hooks need the `run` form: a handler some caller gives hooks (a bid) offers it too.
 */
export interface RideActHandler<K extends RideCommandType> {
  validate?(command: CommandOf<K>): void;
  /** As RideCommandHandler's: outside the lock, before the statement (a card tip's charge); undo when the command then does not go through. */
  prepare?(rideId: string, command: CommandOf<K>, actor: RideActor): Promise<CommandOf<K>>;
  undo?(rideId: string, prepared: CommandOf<K>): Promise<void>;
  act(command: CommandOf<K>, actor: { id: number }, allowed: string, param: (value: unknown) => string): string;
  settle(ctx: { command: CommandOf<K>; actor: RideActor; ride: LockedRide }, acted: Record<string, unknown> | undefined): CommandOutcome<K>;
}

export interface RideCreateHandler<K extends RideCommandType> {
  /** The handler's reads need a transaction around the insert (a lock held until the commit); else the insert commits by itself. */
  readonly transactional?: boolean;
  create(ctx: CreateContext<K>): Promise<CommandOutcome<K>>;
}

/** A sweep's own part: its event for each ride it took, after the table's change of the whole batch. */
export interface RideSweepHandler<K extends SweepCommandType> {
  /** Columns the change writes beside the status (dispatch: the request's time to live starts). */
  columns?(): RideColumns;
  event(ride: LockedRide, view: RideView, withdrawnBidders: number[]): PendingEvent<EventOf<K>>;
}
