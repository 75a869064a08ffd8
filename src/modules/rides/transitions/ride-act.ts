import type { EventBus } from '../../../common/events/event-bus';
import { RideError } from '../rides.errors';
import type { CommandOf, CommandOutcome, RideActHandler, RideActor, ResultOf, UserCommandType } from './ride-command';
import { partyOf, refuse } from './ride-judgement';
import type { RideStepsRepository, StepActor } from './ride-steps.repository';
import { mayAct, ruleOf, sqlPartyAllowing } from './ride-transitions';
import type { RideWritesRepository } from './ride-writes.repository';

/** What the act form needs of the engine: its statements and its event bus. */
export interface RideActIo {
  writes: RideWritesRepository;
  steps: RideStepsRepository;
  events: EventBus;
}

/**
 * A command that changes no ride, as one statement (RideActHandler), refused as the engine's `run`
 * form refuses. The handler's prepare and undo are `run`'s: before the statement, outside the lock
 * (a card tip's charge), and undone when the command then does not go through.
 */
export async function applyAct<K extends UserCommandType>(
  io: RideActIo,
  rideId: string,
  type: K,
  handler: RideActHandler<K>,
  command: CommandOf<K>,
  actor: RideActor,
): Promise<ResultOf<K>> {
  if (actor === 'system') throw new RideError('RIDE_NOT_FOUND');
  const own = handler.prepare ? await handler.prepare(rideId, command, actor) : command;
  const outcome = await actOnce(io, rideId, type, handler, own, actor).catch(async (err: unknown) => {
    if (own !== command) await handler.undo?.(rideId, own);
    throw err;
  });
  if (outcome.event) io.events.publish(outcome.event.name, outcome.event.payload as never);
  return outcome.result;
}

async function actOnce<K extends UserCommandType>(
  io: RideActIo,
  rideId: string,
  type: K,
  handler: RideActHandler<K>,
  command: CommandOf<K>,
  actor: StepActor,
): Promise<Extract<CommandOutcome<K>, { result: unknown }>> {
  const rule = ruleOf(type);
  const { locked: ride, acted } = await io.writes.runAlone((m) =>
    io.steps.actOnLocked<Record<string, unknown>>(
      rideId,
      actor,
      rule.lock ?? 'update',
      sqlPartyAllowing(type, 'l'),
      (allowed, param) => handler.act(command, actor, allowed, param),
      m,
    ),
  );
  const party = ride ? partyOf(ride, actor) : undefined;
  if (!ride || !mayAct(type, party)) throw new RideError('RIDE_NOT_FOUND');
  refuse(type, command, ride, party);
  const outcome = handler.settle({ command, actor, ride }, acted);
  if ('refusal' in outcome) throw outcome.refusal;
  return outcome;
}
