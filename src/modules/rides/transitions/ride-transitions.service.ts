import { Injectable } from '@nestjs/common';
import { EventBus } from '../../../common/events/event-bus';
import { BidsRepository } from '../bids/bids.repository';
import { RidesRepository } from '../read-models/rides.repository';
import { rideToJson, RideView, rideViewFor } from '../read-models/ride-view';
import type { RideStatus } from '../ride-status';
import { RideError } from '../rides.errors';
import { isUuid } from '../rides.service';
import {
  ChangeContext,
  CommandOf,
  CommandOutcome,
  RideCommandHandler,
  RideCreateHandler,
  RideActHandler,
  RideStepHandler,
  CreateContext,
  PendingEvent,
  ResultOf,
  RideActor,
  RideTx,
  TransitionHooks,
  UserCommand,
  UserCommandType,
} from './ride-command';
import { applyAct } from './ride-act';
import { RideCommandHandlers } from './ride-command-handlers';
import { mayAct, RideCommandType, RideParty, RidePartyRule, refusalOf, ruleOf, sqlRuleAllowing, SweepCommandType } from './ride-transitions';
import { RideStepsRepository } from './ride-steps.repository';
import { RideStepForm } from './ride-step-form';
import { LockedRide, RideColumns, RideWritesRepository } from './ride-writes.repository';
import { partyOf, refuse, RIDE_RESULTS, stateOf } from './ride-judgement';
export { partyOf };

/**
 * Where a ride changes: every command goes through apply (one ride) or sweep (the platform's batch
 * form), judged by the one table in ride-transitions.ts. The engine locks the ride (shared or
 * exclusive, as the table says), tells anyone the table does not let act that the ride does not
 * exist, refuses a wrong status with the table's refusal, lets the command's handler do its own
 * part, writes the table's change (status, stamp, withdrawn bids, ride_events row), and publishes
 * the command's event once the transaction has committed: this instance's caches and the gateway,
 * and every other instance's, consume it.
 */
@Injectable()
export class RideTransitionsService {
  /** The step form (one statement), in its own file. */
  private readonly stepForm: RideStepForm;

  constructor(
    private readonly writes: RideWritesRepository,
    private readonly steps: RideStepsRepository,
    private readonly reads: RidesRepository,
    private readonly bids: BidsRepository,
    private readonly handlers: RideCommandHandlers,
    private readonly events: EventBus,
  ) {
    this.stepForm = new RideStepForm(writes, steps, events);
  }

  /**
   * Applies one command in its own transaction (run again on a deadlock or serialization failure,
   * see RideWritesRepository.runInTransaction); the hooks run inside it. Its event is published
   * after the commit, only that of the attempt that committed.
   */
  async apply<C extends UserCommand>(rideId: string, command: C, actor: RideActor, hooks: TransitionHooks = {}): Promise<ResultOf<C['type']>> {
    const result = await this.applyAny(rideId, command, actor, hooks);
    // The answer is the ride as its reader may see it (the passenger's fields only to the passenger), whatever form applied it.
    return RIDE_RESULTS.has(command.type) && actor !== 'system' ? (rideViewFor(result as RideView, actor.id) as ResultOf<C['type']>) : result;
  }

  private async applyAny<C extends UserCommand>(rideId: string, command: C, actor: RideActor, hooks: TransitionHooks): Promise<ResultOf<C['type']>> {
    type K = C['type'];
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    const type: K = command.type;
    const asked = command as CommandOf<K>;
    const any: RideCommandHandler<K, unknown> | RideCreateHandler<K> | RideStepHandler<K> | RideActHandler<K> = this.handlers.of(type);
    if ('validate' in any) any.validate?.(asked);
    const hooked = hooks.before !== undefined || hooks.after !== undefined;
    // A step handler with a `run` form too (onlyWhere) takes `run` under hooks.
    const step = 'event' in any && !('run' in any && hooked) ? any : undefined;
    const handler = any as RideCommandHandler<K, unknown> | RideCreateHandler<K> | RideActHandler<K>;
    const io = { writes: this.writes, steps: this.steps, events: this.events };
    if (!step && 'act' in handler && !hooked) return applyAct(io, rideId, type, handler, asked, actor);
    if (!step && !('run' in handler) && !('create' in handler)) throw new Error(`${type} has no form that takes hooks`);
    if (!step && 'create' in handler && !handler.transactional && !hooked) {
      // Nothing else needs the transaction: each insert attempt commits by itself.
      const outcome = await this.writes.runAlone((m) => this.applyIn(m, rideId, type, handler, asked, actor));
      if ('refusal' in outcome) throw outcome.refusal;
      if (outcome.event) this.events.publish(outcome.event.name, outcome.event.payload as never);
      return outcome.result;
    }
    // Before the ride is locked, outside any transaction: a provider call that must not keep the ride's lock waiting (accept: a card hold).
    const own = 'prepare' in handler && handler.prepare ? await handler.prepare(rideId, asked, actor) : asked;
    try {
      // Undefined: the ride is one the step leaves to the handler's `run` (its onlyWhere did not hold).
      const stepped = step && (await this.stepForm.apply(rideId, type, step, own, actor, hooks));
      if (stepped) return stepped as ResultOf<K>;
      // A step without `run` applies or refuses: only a `run` or `create` handler gets here.
      return await this.applyRun(rideId, type, handler as RideCommandHandler<K, unknown> | RideCreateHandler<K>, own, actor, hooks);
    } catch (err) {
      // A handler's work outside the lock (a card hold) is undone when the command does not go through.
      if ('undo' in handler && handler.undo && own !== asked) await handler.undo(rideId, own);
      throw err;
    }
  }

  /** The `run` form (and a `create` that needs a transaction): the handler's part in a transaction, hooks around it. */
  private async applyRun<K extends UserCommandType>(
    rideId: string,
    type: K,
    handler: RideCommandHandler<K, unknown> | RideCreateHandler<K>,
    command: CommandOf<K>,
    actor: RideActor,
    hooks: TransitionHooks,
  ): Promise<ResultOf<K>> {
    let event: PendingEvent | undefined;
    let refusal: Error | undefined;
    const result = await this.writes.runInTransaction(async (tx) => {
      event = undefined;
      refusal = undefined;
      const replay = await hooks.before?.(tx);
      if (replay) return replay as ResultOf<K>;
      const outcome = await this.applyIn(tx, rideId, type, handler, command, actor);
      if ('refusal' in outcome) {
        refusal = outcome.refusal;
        return undefined;
      }
      event = outcome.event as PendingEvent | undefined;
      await hooks.after?.(tx, outcome.result as RideView);
      return outcome.result;
    });
    if (result === undefined) throw refusal ?? new Error(`${type} answered nothing`);
    if (event) this.events.publish(event.name, event.payload);
    return result;
  }

  /**
   * The locking helper for an act on a ride that changes no ride but must not race a change (a chat
   * message may not be stored after a concurrent command ended the ride): one statement, committed
   * by itself, that locks the ride, judges `rule` in SQL and runs `act` only where it allows (see
   * RideStepsRepository.actOnLocked). The caller judges `locked` by the same rule, for the refusal,
   * and publishes what `acted` wrote: it has committed.
   */
  async actOnRide<T>(
    rideId: string,
    actor: { id: number },
    lock: 'share' | 'update',
    rule: Pick<RidePartyRule<string>, 'from'>,
    act: (allowed: string, param: (value: unknown) => string) => string,
  ): Promise<{ locked?: LockedRide; acted?: T }> {
    if (!isUuid(rideId)) return {};
    return this.writes.runAlone((m) => this.steps.actOnLocked<T>(rideId, actor, lock, sqlRuleAllowing(rule, 'l'), act, m));
  }

  /**
   * The platform's batch form of a sweep command (expire, dispatch): the rides the table says are due, locked
   * with SKIP LOCKED (two sweepers never take the same ride, nor wait for each other), changed in
   * one statement; returns how many.
   */
  async sweep<K extends SweepCommandType>(type: K, limit: number): Promise<number> {
    const rule = ruleOf(type);
    const to = rule.to!;
    let events: PendingEvent[] = [];
    const count = await this.writes.runInTransaction(async (tx) => {
      // The lock query takes only what the table allows; checking each row again costs nothing.
      const rides = (await this.writes.lockDue(type, limit, tx)).filter((r) => refusalOf(type, 'system', stateOf(r)) === null);
      const ids = rides.map((r) => r.id);
      if (ids.length === 0) return 0;
      const handler = this.handlers.sweep(type);
      await this.writes.changeStatus(ids, to, rule.stamp, handler.columns?.() ?? {}, tx);
      const bidders = rule.withdrawsBids ? await this.bids.withdrawPendingForRides(ids, tx) : new Map<string, number[]>();
      await this.writes.recordEvents(
        rides.map((r) => ({ rideId: r.id, from: r.status, to, actorUserId: null, actorRole: 'system' as const })),
        tx,
      );
      const views = new Map((await this.reads.findViews(ids, tx)).map((row) => [row.id, rideToJson(row)]));
      events = rides.map((r) => handler.event(r, views.get(r.id)!, bidders.get(r.id) ?? []) as PendingEvent);
      return ids.length;
    });
    for (const event of events) this.events.publish(event.name, event.payload);
    return count;
  }

  private async applyIn<K extends UserCommandType>(
    tx: RideTx,
    rideId: string,
    type: K,
    handler: RideCommandHandler<K, unknown> | RideCreateHandler<K>,
    command: CommandOf<K>,
    actor: RideActor,
  ): Promise<CommandOutcome<K>> {
    const rule = ruleOf(type);
    if ('create' in handler) {
      if (actor === 'system') throw new RideError('RIDE_NOT_FOUND');
      return handler.create(this.createContext(tx, rideId, command, actor, rule.to!));
    }
    const ride = await this.writes.lock(rideId, rule.lock ?? 'update', tx);
    const party = ride ? partyOf(ride, actor) : undefined;
    // To anyone the table does not let act, the ride does not exist.
    if (!ride || !mayAct(type, party)) throw new RideError('RIDE_NOT_FOUND');
    const ctx = this.changeContext(tx, ride, type, command, actor, party);
    const located = await handler.locate?.(ctx);
    refuse(type, command, ride, party);
    return handler.run(ctx, located);
  }

  private changeContext<K extends RideCommandType>(
    tx: RideTx,
    ride: LockedRide,
    type: K,
    command: CommandOf<K>,
    actor: RideActor,
    party: RideParty,
  ): ChangeContext<K> {
    const rule = ruleOf(type);
    const ctx = {
      command,
      actor,
      party,
      ride,
      tx,
      withdrawnBidders: [] as number[],
      changeStatus: async (set: RideColumns = {}, reason?: string | null): Promise<boolean> => {
        if (!rule.to || party === 'other') throw new Error(`${type} changes no status`);
        if (!(await this.writes.changeStatus([ride.id], rule.to, rule.stamp, set, tx))) return false;
        if (rule.withdrawsBids) ctx.withdrawnBidders = (await this.bids.withdrawPendingForRides([ride.id], tx)).get(ride.id) ?? [];
        const actorUserId = actor === 'system' ? null : actor.id;
        await this.writes.recordEvents([{ rideId: ride.id, from: ride.status, to: rule.to, actorUserId, actorRole: party, reason }], tx);
        return true;
      },
      view: () => this.view(ride.id, tx),
    };
    return ctx;
  }

  private createContext<K extends RideCommandType>(tx: RideTx, rideId: string, command: CommandOf<K>, actor: { id: number }, to: RideStatus): CreateContext<K> {
    return {
      command,
      actor,
      rideId,
      tx,
      insert: async (ride, unlessLive) => {
        const { live, view } = await this.steps.insert(ride, to, unlessLive, tx);
        return { live, view: view && rideToJson(view) };
      },
    };
  }

  private async view(rideId: string, tx: RideTx): Promise<RideView> {
    const row = await this.reads.findView(rideId, tx);
    if (!row) throw new RideError('RIDE_NOT_FOUND');
    return rideToJson(row);
  }
}
