import type { EventBus } from '../../../common/events/event-bus';
import type { BidsRepository } from '../bids/bids.repository';
import type { RidesRepository } from '../read-models/rides.repository';
import { RideError } from '../rides.errors';
import type { RideCommandHandlers } from './ride-command-handlers';
import type { RideStepsRepository } from './ride-steps.repository';
import { RideTransitionsService } from './ride-transitions.service';
import type { LockedRide, RideWritesRepository } from './ride-writes.repository';

/**
 * A `run` handler's prepare and undo, and a step that leaves some rides to its handler's `run` (a card ride's accept holds the fare outside the ride's lock):
 * prepare before the transaction, undo only when the command then does not go through.
 */
const RIDE = '6f1c1a52-7d0e-4a47-9d7e-1a1f3c1b2e01';
const LOCKED = { id: RIDE, status: 'requested', passenger_id: 1, driver_id: null, past: { expires_at: false } } as unknown as LockedRide;

function setup(run: () => Promise<unknown>, prepared: 'held' | 'unchanged' = 'held') {
  const log: string[] = [];
  const writes = {
    runAlone: async (work: (m: unknown) => Promise<unknown>) => work('autocommit'),
    runInTransaction: async (work: (tx: unknown) => Promise<unknown>) => {
      log.push('begin');
      const result = await work('tx').catch((err: unknown) => (log.push('rollback'), Promise.reject(err)));
      return (log.push('commit'), result);
    },
    lock: async () => LOCKED,
  };
  const accept = {
    prepare: jest.fn(
      async (_id: string, command: object) => (log.push('prepare'), prepared === 'held' ? { ...command, hold: { amountMinor: 1200 } } : command),
    ),
    undo: jest.fn(async () => void log.push('undo')),
    run: jest.fn(async () => (log.push('run'), run())),
  };
  const cancel = {
    onlyWhere: "l.payment_method = 'cash'",
    event: () => ({ name: 'ride.cancelled', payload: {} }),
    run: jest.fn(async () => (log.push('run cancel'), { result: { id: RIDE }, event: { name: 'ride.cancelled', payload: {} } })),
  };
  const steps = {
    step: jest.fn(async (_type: string, _id: string, _actor: unknown, change: { where?: string }, m: unknown) => {
      log.push(`step where ${change.where} in ${String(m)}`);
      const cash = prepared === 'unchanged';
      return {
        locked: { ...LOCKED, status: 'accepted' },
        view: cash ? { id: RIDE, status: 'cancelled' } : undefined,
        withdrawnBidders: [],
        also: false,
        onlyWhere: cash,
      };
    }),
  };
  const handlers = { of: (type: string) => (type === 'cancel' ? cancel : accept) };
  const events = { publish: jest.fn((name: string) => log.push(`publish ${name}`)) };
  const engine = new RideTransitionsService(
    writes as unknown as RideWritesRepository,
    steps as unknown as RideStepsRepository,
    {} as RidesRepository,
    {} as BidsRepository,
    handlers as unknown as RideCommandHandlers,
    events as unknown as EventBus,
  );
  const cancelBy = () => engine.apply(RIDE, { type: 'cancel', reason: null }, { id: 1 });
  return { apply: () => engine.apply(RIDE, { type: 'accept', bidId: RIDE }, { id: 1 }), cancelBy, accept, cancel, log };
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

describe('RideTransitionsService.apply: a step with onlyWhere', () => {
  it('is one statement where it holds (a cash ride), and nothing else runs', async () => {
    const t = setup(async () => ({}), 'unchanged');
    await expect(t.cancelBy()).resolves.toMatchObject({ id: RIDE, status: 'cancelled' });
    expect(t.log).toEqual(["step where l.payment_method = 'cash' in autocommit", 'publish ride.cancelled']);
  });

  it("elsewhere writes nothing and the command takes the handler's run form (a card ride's hold to release)", async () => {
    const t = setup(async () => ({}));
    await expect(t.cancelBy()).resolves.toEqual({ id: RIDE });
    expect(t.log).toEqual(["step where l.payment_method = 'cash' in autocommit", 'begin', 'run cancel', 'commit', 'publish ride.cancelled']);
  });
});
