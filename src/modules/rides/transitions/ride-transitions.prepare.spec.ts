import { QueryFailedError } from 'typeorm';
import type { EventBus } from '../../../common/events/event-bus';
import type { BidsRepository } from '../bids/bids.repository';
import type { RidesRepository } from '../read-models/rides.repository';
import { RideError } from '../rides.errors';
import type { RideCommandHandlers } from './ride-command-handlers';
import type { RideStepsRepository } from './ride-steps.repository';
import { RideTransitionsService } from './ride-transitions.service';
import type { LockedRide, RideWritesRepository } from './ride-writes.repository';

/**
 * A `run` or `act` handler's prepare and undo, and a step that leaves some rides to its handler's `run` (a card ride's accept holds the fare outside the ride's lock):
 * prepare before the transaction, undo only when the command then does not go through.
 */
const RIDE = '6f1c1a52-7d0e-4a47-9d7e-1a1f3c1b2e01';
const LOCKED = { id: RIDE, status: 'requested', passenger_id: 1, driver_id: null, past: { expires_at: false } } as unknown as LockedRide;

/** The engine over fake repositories and handlers; each publish is logged after the calls it follows. */
function engineWith(writes: unknown, steps: unknown, handlers: unknown, log: string[]): RideTransitionsService {
  const events = { publish: jest.fn((name: string) => log.push(`publish ${name}`)) };
  return new RideTransitionsService(
    writes as RideWritesRepository,
    steps as RideStepsRepository,
    {} as RidesRepository,
    {} as BidsRepository,
    handlers as RideCommandHandlers,
    events as unknown as EventBus,
  );
}
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
    step: jest.fn(async (_type: string, _id: string, _actor: unknown, change: { where?: (param: unknown) => string }, m: unknown) => {
      log.push(`step where ${change.where?.(() => '$5')} in ${String(m)}`);
      const cash = prepared === 'unchanged';
      return {
        locked: { ...LOCKED, status: 'accepted' },
        view: cash ? { id: RIDE, status: 'cancelled' } : undefined,
        withdrawnBidders: [],
        also: [],
        onlyWhere: cash,
      };
    }),
  };
  const handlers = { of: (type: string) => (type === 'cancel' ? cancel : accept) };
  const engine = engineWith(writes, steps, handlers, log);
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

/** An act handler (a card ride's tip): prepared outside the lock, then its one statement. */
function actSetup(settled: 'paid' | 'refused', prepared: 'charged' | 'unchanged' = 'charged') {
  const log: string[] = [];
  const completed = { ...LOCKED, status: 'completed' } as LockedRide;
  const writes = { runAlone: async (work: (m: unknown) => Promise<unknown>) => work('autocommit') };
  const steps = {
    actOnLocked: jest.fn(async (_id: string, _actor: unknown, _lock: string, _allowed: string, ctes: (a: string, p: () => string) => string) => {
      log.push(`act ${ctes('', () => '$3')}`);
      return { locked: completed, acted: { paid: settled === 'paid' } };
    }),
  };
  const tip = {
    prepare: jest.fn(async (_id: string, command: object) => (log.push('prepare'), prepared === 'charged' ? { ...command, charged: true } : command)),
    undo: jest.fn(async () => void log.push('undo')),
    act: jest.fn((command: { charged?: true }) => (command.charged ? 'charged' : 'from the wallet')),
    settle: jest.fn((_ctx: unknown, acted: { paid: boolean }) =>
      acted.paid ? { result: { ride_id: RIDE }, event: { name: 'ride.tipped', payload: {} } } : { refusal: new RideError('TIP_ALREADY_PAID') },
    ),
  };
  const engine = engineWith(writes, steps, { of: () => tip }, log);
  return { apply: () => engine.apply(RIDE, { type: 'tip', amountMinor: 200 }, { id: 1 }), engine, tip, log };
}

describe('RideTransitionsService.apply: an act with prepare and undo', () => {
  it('prepares before the statement, acts and settles with the prepared command; nothing undone when it went through', async () => {
    const t = actSetup('paid');
    await expect(t.apply()).resolves.toEqual({ ride_id: RIDE });
    expect(t.log).toEqual(['prepare', 'act charged', 'publish ride.tipped']);
    expect(t.tip.settle).toHaveBeenCalledWith(expect.objectContaining({ command: { type: 'tip', amountMinor: 200, charged: true } }), { paid: true });
  });

  it('undoes the prepared step when the statement refused it; nothing to undo when prepare changed nothing', async () => {
    const refused = actSetup('refused');
    await expect(refused.apply()).rejects.toMatchObject({ code: 'TIP_ALREADY_PAID' });
    expect(refused.log).toEqual(['prepare', 'act charged', 'undo']);
    const cash = actSetup('refused', 'unchanged');
    await expect(cash.apply()).rejects.toMatchObject({ code: 'TIP_ALREADY_PAID' });
    expect(cash.log).toEqual(['prepare', 'act from the wallet']);
  });

  it('takes no hooks without a `run` form: refused before anything runs', async () => {
    const t = actSetup('paid');
    await expect(t.engine.apply(RIDE, { type: 'tip', amountMinor: 200 }, { id: 1 }, { after: async () => undefined })).rejects.toThrow(
      /no form that takes hooks/,
    );
    expect(t.log).toEqual([]);
  });
});

/** An accept that is a step at steady state (onlyWhere, nowait) with a `run` form, a lookup (locate) and prepare/undo. */
function stepSetup(options: { step?: 'applies' | 'elsewhere' | 'refused' | 'cancelled' | Error; run?: () => Promise<unknown>; locateFinds?: boolean } = {}) {
  const log: string[] = [];
  const outcome = options.step ?? 'applies';
  // 'refused': the step's onlyWhere held but the table refused (a ride no longer requested); 'cancelled': neither held.
  const status = outcome === 'refused' || outcome === 'cancelled' ? 'cancelled' : 'requested';
  const writes = {
    runAlone: async (work: (m: unknown) => Promise<unknown>) => work('autocommit'),
    runInTransaction: async (work: (tx: unknown) => Promise<unknown>) => {
      log.push('begin');
      const result = await work('tx').catch((err: unknown) => (log.push('rollback'), Promise.reject(err)));
      return (log.push('commit'), result);
    },
    lock: async () => ({ ...LOCKED, status }),
  };
  const accept = {
    onlyWhere: 'coalesce((SELECT ready FROM src), false)',
    nowait: true,
    source: jest.fn(() => 'SELECT 1'),
    event: () => ({ name: 'ride.accepted', payload: {} }),
    prepare: jest.fn(async (_id: string, command: object) => (log.push('prepare'), { ...command, hold: { amountMinor: 1200 } })),
    undo: jest.fn(async () => void log.push('undo')),
    locate: jest.fn(async () => {
      log.push('locate');
      if (options.locateFinds === false) throw new RideError('RIDE_NOT_FOUND', 'no such bid');
    }),
    run: jest.fn(async () => (log.push('run'), (options.run ?? (async () => ({ result: { id: RIDE }, event: { name: 'ride.accepted', payload: {} } })))())),
  };
  const steps = {
    step: jest.fn(async (_type: string, _id: string, _actor: unknown, change: { nowait?: boolean; source?: (p: unknown) => string }) => {
      log.push(`step${change.nowait ? ' nowait' : ''} with ${change.source?.(() => '$5')}`);
      if (outcome instanceof Error) throw outcome;
      const view = outcome === 'applies' ? { id: RIDE, status: 'accepted' } : undefined;
      return { locked: { ...LOCKED, status }, view, withdrawnBidders: [], also: [], onlyWhere: outcome === 'applies' || outcome === 'refused' };
    }),
  };
  const engine = engineWith(writes, steps, { of: () => accept }, log);
  return { apply: () => engine.apply(RIDE, { type: 'accept', bidId: RIDE }, { id: 1 }), accept, log };
}

const pgError = (code: string) => new QueryFailedError('WITH l AS (...)', [], Object.assign(new Error(code), { code }));

describe('RideTransitionsService.apply: a step with prepare, onlyWhere and a run form (accept)', () => {
  it('prepares before its one statement, which gets the prepared command; nothing is undone when it applies', async () => {
    const t = stepSetup();
    await expect(t.apply()).resolves.toMatchObject({ id: RIDE, status: 'accepted' });
    expect(t.log).toEqual(['prepare', 'step nowait with SELECT 1', 'publish ride.accepted']);
    expect(t.accept.source).toHaveBeenCalledWith({ type: 'accept', bidId: RIDE, hold: { amountMinor: 1200 } }, expect.any(Function));
  });

  it('undoes the prepared step when the statement is refused by the table, or when run, taking over, refuses', async () => {
    const refused = stepSetup({ step: 'refused' });
    await expect(refused.apply()).rejects.toMatchObject({ code: 'RIDE_NOT_REQUESTED' });
    expect(refused.log).toEqual(['prepare', 'step nowait with SELECT 1', 'undo']);
    // Neither held: run judges, its lookup first, then the table.
    const gone = stepSetup({ step: 'cancelled' });
    await expect(gone.apply()).rejects.toMatchObject({ code: 'RIDE_NOT_REQUESTED' });
    expect(gone.log).toEqual(['prepare', 'step nowait with SELECT 1', 'begin', 'locate', 'rollback', 'undo']);
    const lost = stepSetup({ step: 'elsewhere', run: async () => ({ refusal: new RideError('RIDE_NOT_REQUESTED') }) });
    await expect(lost.apply()).rejects.toMatchObject({ code: 'RIDE_NOT_REQUESTED' });
    expect(lost.log).toEqual(['prepare', 'step nowait with SELECT 1', 'begin', 'locate', 'run', 'commit', 'undo']);
    expect(lost.accept.undo).toHaveBeenCalledTimes(1);
  });

  it("a ride the step leaves to run is judged there, the handler's lookup before the table (a bid of another ride is not found)", async () => {
    const t = stepSetup({ step: 'cancelled', locateFinds: false });
    await expect(t.apply()).rejects.toMatchObject({ code: 'RIDE_NOT_FOUND', message: 'no such bid' });
  });

  it.each([
    ['held by another (55P03: nowait)', '55P03'],
    ['refused by a unique index (23505: the driver took a live ride meanwhile)', '23505'],
  ])('a ride %s leaves the command to run, which judges again', async (_name, code) => {
    const t = stepSetup({ step: pgError(code), run: async () => ({ refusal: new RideError('DRIVER_BUSY' as never) }) });
    await expect(t.apply()).rejects.toMatchObject({ code: 'DRIVER_BUSY' });
    expect(t.log).toEqual(['prepare', 'step nowait with SELECT 1', 'begin', 'locate', 'run', 'commit', 'undo']);
  });

  it('any other database error stands, and the prepared step is undone', async () => {
    const t = stepSetup({ step: pgError('57014') });
    await expect(t.apply()).rejects.toBeInstanceOf(QueryFailedError);
    expect(t.log).toEqual(['prepare', 'step nowait with SELECT 1', 'undo']);
  });
});
