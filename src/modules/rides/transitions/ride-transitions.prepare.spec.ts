import type { EventBus } from '../../../common/events/event-bus';
import type { BidsRepository } from '../bids/bids.repository';
import type { RidesRepository } from '../read-models/rides.repository';
import { RideError } from '../rides.errors';
import type { RideCommandHandlers } from './ride-command-handlers';
import type { RideStepsRepository } from './ride-steps.repository';
import { RideTransitionsService } from './ride-transitions.service';
import type { LockedRide, RideWritesRepository } from './ride-writes.repository';

/**
 * A `run` handler's prepare and undo (a card ride's accept holds the fare outside the ride's lock):
 * prepare before the transaction, undo only when the command then does not go through.
 */
const RIDE = '6f1c1a52-7d0e-4a47-9d7e-1a1f3c1b2e01';
const LOCKED = { id: RIDE, status: 'requested', passenger_id: 1, driver_id: null, past: { expires_at: false } } as unknown as LockedRide;

function setup(run: () => Promise<unknown>, prepared: 'held' | 'unchanged' = 'held') {
  const log: string[] = [];
  const writes = {
    runInTransaction: async (work: (tx: unknown) => Promise<unknown>) => {
      log.push('begin');
      const result = await work('tx').catch((err: unknown) => (log.push('rollback'), Promise.reject(err)));
      return log.push('commit'), result;
    },
    lock: async () => LOCKED,
  };
  const accept = {
    prepare: jest.fn(async (_id: string, command: object) => (log.push('prepare'), prepared === 'held' ? { ...command, hold: { amountMinor: 1200 } } : command)),
    undo: jest.fn(async () => void log.push('undo')),
    run: jest.fn(async () => (log.push('run'), run())),
  };
  const handlers = { of: () => accept };
  const events = { publish: jest.fn((name: string) => log.push(`publish ${name}`)) };
  const engine = new RideTransitionsService(
    writes as unknown as RideWritesRepository,
    {} as RideStepsRepository,
    {} as RidesRepository,
    {} as BidsRepository,
    handlers as unknown as RideCommandHandlers,
    events as unknown as EventBus,
  );
  return { apply: () => engine.apply(RIDE, { type: 'accept', bidId: RIDE }, { id: 1 }), accept, log };
}

describe('RideTransitionsService.apply: prepare and undo', () => {
  it('prepares before the transaction and runs with the prepared command; nothing undone when it commits', async () => {
    const t = setup(async () => ({ result: { id: RIDE }, event: { name: 'ride.accepted', payload: {} } }));
    await t.apply();
    expect(t.log).toEqual(['prepare', 'begin', 'run', 'commit', 'publish ride.accepted']);
    expect(t.accept.run).toHaveBeenCalledWith(expect.objectContaining({ command: { type: 'accept', bidId: RIDE, hold: { amountMinor: 1200 } } }), undefined);
  });

  it('undoes the prepared step when the transaction fails, or the handler refuses', async () => {
    const failed = setup(async () => Promise.reject(new RideError('RIDE_NOT_REQUESTED')));
    await expect(failed.apply()).rejects.toMatchObject({ code: 'RIDE_NOT_REQUESTED' });
    expect(failed.log).toEqual(['prepare', 'begin', 'run', 'rollback', 'undo']);
    const refused = setup(async () => ({ refusal: new RideError('RIDE_NOT_REQUESTED') }));
    await expect(refused.apply()).rejects.toMatchObject({ code: 'RIDE_NOT_REQUESTED' });
    expect(refused.log).toEqual(['prepare', 'begin', 'run', 'commit', 'undo']);
  });

  it('has nothing to undo when prepare changed nothing (a cash ride)', async () => {
    const t = setup(async () => Promise.reject(new RideError('RIDE_NOT_REQUESTED')), 'unchanged');
    await expect(t.apply()).rejects.toMatchObject({ code: 'RIDE_NOT_REQUESTED' });
    expect(t.accept.undo).not.toHaveBeenCalled();
  });
});
