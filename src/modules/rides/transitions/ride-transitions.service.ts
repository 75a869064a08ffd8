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
  CreateContext,
  PendingEvent,
  ResultOf,
  RideActor,
  RideCommand,
  RideTx,
  TransitionHooks,
  UserCommand,
  UserCommandType,
} from './ride-command';
import { RideCommandHandlers } from './ride-command-handlers';
import { mayAct, RideCommandType, RideParty, refusalOf, ruleOf, SweepCommandType } from './ride-transitions';
import { LockedRide, RideColumns, RideWritesRepository } from './ride-writes.repository';

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
  constructor(
    private readonly writes: RideWritesRepository,
    private readonly reads: RidesRepository,
    private readonly bids: BidsRepository,
    private readonly handlers: RideCommandHandlers,
    private readonly events: EventBus,
  ) {}

  /**
   * Applies one command in its own transaction (run again on a deadlock or serialization failure,
   * see RideWritesRepository.runInTransaction); the hooks run inside it. Its event is published
   * after the commit, only that of the attempt that committed.
   */
  async apply<C extends UserCommand>(rideId: string, command: C, actor: RideActor, hooks: TransitionHooks = {}): Promise<ResultOf<C['type']>> {
    type K = C['type'];
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    const type: K = command.type;
    const handler: RideCommandHandler<K, unknown> | RideCreateHandler<K> = this.handlers.of(type);
    if ('validate' in handler) handler.validate?.(command as CommandOf<K>);
    const own = 'prepare' in handler && handler.prepare ? await handler.prepare(rideId, command as CommandOf<K>, actor) : (command as CommandOf<K>);
    let event: PendingEvent | undefined;
    let refusal: Error | undefined;
    // A handler's work outside the lock (a card hold) is undone when the command does not go through.
    const undo = async (): Promise<void> => {
      if ('undo' in handler && handler.undo && own !== command) await handler.undo(rideId, own);
    };
    const result = await this.writes
      .runInTransaction(async (tx) => {
        event = undefined;
        refusal = undefined;
        const replay = await hooks.before?.(tx);
        if (replay) return replay as ResultOf<K>;
        const outcome = await this.applyIn(tx, rideId, type, handler, own, actor);
        if ('refusal' in outcome) {
          refusal = outcome.refusal;
          return undefined;
        }
        event = outcome.event as PendingEvent | undefined;
        await hooks.after?.(tx, outcome.result as RideView);
        return outcome.result;
      })
      .catch(async (err: unknown) => {
        await undo();
        throw err;
      });
    if (result === undefined) {
      await undo();
      throw refusal ?? new Error(`${type} answered nothing`);
    }
    if (event) this.events.publish(event.name, event.payload);
    // The answer is the ride as its reader may see it (the passenger's fields only to the passenger).
    return RIDE_RESULTS.has(type) && actor !== 'system' ? (rideViewFor(result as RideView, actor.id) as ResultOf<K>) : result;
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
    const refusal = refusalOf(type, party, stateOf(ride));
    if (refusal === 'INVALID_STATUS_TRANSITION') {
      throw new RideError(refusal, `Cannot change a ride from ${ride.status} to ${targetOf(command) ?? rule.to}`);
    }
    if (refusal !== null) throw new RideError(refusal);
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

  private createContext<K extends RideCommandType>(
    tx: RideTx,
    rideId: string,
    command: CommandOf<K>,
    actor: { id: number },
    to: RideStatus,
  ): CreateContext<K> {
    return {
      command,
      actor,
      rideId,
      tx,
      insert: async (ride) => {
        if (!(await this.writes.insert(ride, to, tx))) return false;
        await this.writes.recordEvents([{ rideId, from: null, to, actorUserId: actor.id, actorRole: 'passenger' }], tx);
        return true;
      },
      view: () => this.view(rideId, tx),
    };
  }

  private async view(rideId: string, tx: RideTx): Promise<RideView> {
    const row = await this.reads.findView(rideId, tx);
    if (!row) throw new RideError('RIDE_NOT_FOUND');
    return rideToJson(row);
  }
}

/** The commands whose answer is the ride (the others answer with the bid, the tip, the rating). */
const RIDE_RESULTS: ReadonlySet<RideCommandType> = new Set<RideCommandType>(['book', 'schedule', 'accept', 'arrive', 'start', 'complete', 'cancel', 'raise_offer']);

function stateOf(ride: LockedRide) {
  return { status: ride.status, past: ride.past };
}

/** The status a command names itself (PUT /status with a status no step reaches), for the refusal's message. */
function targetOf(command: RideCommand): RideStatus | undefined {
  return command.type === 'no_step' ? command.to : undefined;
}

/** The actor's relation to the ride: its passenger, its driver, the platform, an operator, or anyone else. */
export function partyOf(ride: Pick<LockedRide, 'passenger_id' | 'driver_id'>, actor: RideActor): RideParty {
  if (actor === 'system') return 'system';
  if (actor.operator) return 'operator';
  if (ride.passenger_id === actor.id) return 'passenger';
  if (ride.driver_id === actor.id) return 'driver';
  return 'other';
}
