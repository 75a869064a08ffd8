import type { RideStatus } from '../ride-status';
import { RideError } from '../rides.errors';
import type { RideActor, RideCommand } from './ride-command';
import type { LockedRide } from './locked-ride';
import { RideCommandType, RideParty, refusalOf, ruleOf } from './ride-transitions';

/** Throws the table's refusal for `party` applying the command to the locked ride, if it has one. */
export function refuse(type: RideCommandType, command: RideCommand, ride: LockedRide, party: RideParty): void {
  const refusal = refusalOf(type, party, stateOf(ride));
  if (refusal === 'INVALID_STATUS_TRANSITION') {
    throw new RideError(refusal, `Cannot change a ride from ${ride.status} to ${targetOf(command) ?? ruleOf(type).to}`);
  }
  if (refusal !== null) throw new RideError(refusal);
}

/** The commands whose answer is the ride (the others answer with the bid, the tip, the rating). */
export const RIDE_RESULTS: ReadonlySet<RideCommandType> = new Set<RideCommandType>([
  'book',
  'schedule',
  'accept',
  'arrive',
  'start',
  'complete',
  'cancel',
  'raise_offer',
]);

export function stateOf(ride: LockedRide) {
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
