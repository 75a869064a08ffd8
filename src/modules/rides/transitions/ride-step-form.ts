import { QueryFailedError } from 'typeorm';
import type { EventBus } from '../../../common/events/event-bus';
import { rideToJson, RideView } from '../read-models/ride-view';
import { RideError } from '../rides.errors';
import type { CommandOf, PendingEvent, RideActor, RideStepHandler, RideTx, StepDone, TransitionHooks, UserCommandType } from './ride-command';
import { partyOf, refuse } from './ride-judgement';
import { mayAct, ruleOf } from './ride-transitions';
import type { RideStepsRepository, StepChange, StepOutcome } from './ride-steps.repository';
import type { RideWritesRepository } from './ride-writes.repository';

/** lock_not_available (a `nowait` step found the ride held), unique_violation (an index refused the change): nothing was written. */
const LEFT_TO_RUN_SQLSTATES = new Set(['55P03', '23505']);

function leftToRun(err: unknown): boolean {
  const code = err instanceof QueryFailedError ? (err.driverError as { code?: string }).code : undefined;
  return code !== undefined && LEFT_TO_RUN_SQLSTATES.has(code);
}

/**
 * The step form of RideTransitionsService.apply: a command that is the table's change, as one
 * statement (RideStepsRepository.step), which commits by itself unless hooks or the handler's
 * `inTransaction` need a transaction around it. Refused exactly as the `run` form refuses, from the
 * ride as the statement locked it.
 */
export class RideStepForm {
  constructor(
    private readonly writes: RideWritesRepository,
    private readonly steps: RideStepsRepository,
    private readonly events: EventBus,
  ) {}

  /**
   * The ride as the API shows it once changed; undefined, with nothing written, for a ride the
   * handler leaves to its `run` form: its onlyWhere did not hold, it was held by another (`nowait`),
   * or a unique index refused the change (a driver already on a live ride), which `run` judges again.
   */
  async apply<K extends UserCommandType>(
    rideId: string,
    type: K,
    handler: RideStepHandler<K>,
    command: CommandOf<K>,
    actor: RideActor,
    hooks: TransitionHooks,
  ): Promise<RideView | undefined> {
    if (actor === 'system') throw new RideError('RIDE_NOT_FOUND');
    const { onlyWhere } = handler;
    const hasRun = onlyWhere !== undefined;
    const change: StepChange = {
      set: handler.columns?.(command) ?? {},
      reason: handler.reason?.(command) ?? null,
      source: handler.source && ((param) => handler.source!(command, param)),
      where: onlyWhere === undefined ? undefined : (param) => (typeof onlyWhere === 'string' ? onlyWhere : onlyWhere.call(handler, command, param)),
      also: handler.also?.bind(handler),
      // A step that withdraws the ride's bids reads them too (cancel): waiting for the lock would hide a bid placed meanwhile.
      nowait: handler.nowait === true || (hasRun && ruleOf(type).withdrawsBids === true),
    };
    const step = (tx: RideTx): Promise<StepOutcome> => this.steps.step(type, rideId, actor, change, tx);
    let event: PendingEvent | undefined;
    let stepDone: StepDone<K> | undefined;
    const judged = (done: StepOutcome): RideView | undefined => {
      const ride = done.locked;
      const party = ride ? partyOf(ride, actor) : undefined;
      if (!ride || !mayAct(type, party)) throw new RideError('RIDE_NOT_FOUND');
      const toRun = !done.view && hasRun && !done.onlyWhere;
      // A handler that looks something up before the table judges (accept: the bid) refuses first, in `run`.
      if (toRun && 'locate' in handler) return undefined;
      refuse(type, command, ride, party);
      if (toRun) return undefined;
      if (!done.view) throw new Error(`the ${type} statement refused what the table allows`);
      const view = rideToJson(done.view);
      stepDone = { command, party, ride, view, withdrawnBidders: done.withdrawnBidders, also: done.also };
      event = handler.event(stepDone) as PendingEvent;
      return view;
    };
    const attempt = async (): Promise<RideView | undefined> =>
      hooks.before || hooks.after || handler.inTransaction
        ? this.writes.runInTransaction(async (tx) => {
            event = undefined;
            const replay = await hooks.before?.(tx);
            if (replay) return replay;
            const view = judged(await step(tx));
            if (view === undefined) return undefined;
            await handler.inTransaction?.(tx, stepDone!);
            await hooks.after?.(tx, view);
            return view;
          })
        : judged(await this.writes.runAlone(step));
    const result = await attempt().catch((err: unknown) => {
      if (hasRun && leftToRun(err)) return undefined;
      throw err;
    });
    if (result !== undefined && event) this.events.publish(event.name, event.payload);
    return result;
  }
}
