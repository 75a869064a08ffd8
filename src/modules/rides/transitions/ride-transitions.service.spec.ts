import type { EventBus } from '../../../common/events/event-bus';
import type { BidsRepository } from '../bids/bids.repository';
import type { RidesRepository } from '../read-models/rides.repository';
import { RideError } from '../rides.errors';
import type { RideActor } from './ride-command';
import type { RideCommandHandlers } from './ride-command-handlers';
import type { RideStepsRepository, StepOutcome } from './ride-steps.repository';
import { RideTransitionsService } from './ride-transitions.service';
import type { LockedRide, RideWritesRepository } from './ride-writes.repository';

// The view's JSON is the read model's business (its own specs); here a row stands for itself.
jest.mock('../read-models/ride-view', () => ({ ...jest.requireActual('../read-models/ride-view'), rideToJson: (row: object) => ({ ...row }) }));

/**
 * The engine without a database: repositories and handlers are fakes that write what happens into
 * one log, so that the order of the lock, the table's judgement, the handler, the commit and the
 * publication can be read off it. The HTTP suites (test/rides/*) check the same against PostgreSQL.
 */
const RIDE = '6f1c1a52-7d0e-4a47-9d7e-1a1f3c1b2e01';
const PASSENGER = { id: 1 };
const DRIVER = { id: 2 };
const STRANGER = { id: 3 };

function locked(overrides: Partial<LockedRide> = {}): LockedRide {
  return {
    ...{ id: RIDE, status: 'requested', passenger_id: 1, driver_id: 2, vehicle_category_id: 1, payment_method: 'cash', fare_minor: 1000 },
    ...{ estimated_fare_minor: 1000, offered_fare_minor: null, currency: 'EUR', start_pin: null, start_pin_failures: 0 },
    ...{ payment_status: null, accepted_seconds: null, arrived_seconds: null },
    past: { expires_at: false, dispatch_at: false },
    ...overrides,
  };
}

function setup(options: { ride?: LockedRide; step?: Partial<StepOutcome>; attempts?: number; due?: LockedRide[] } = {}) {
  const log: string[] = [];
  const ride = 'ride' in options ? options.ride : locked();
  const writes = {
    runInTransaction: jest.fn(async (work: (tx: unknown) => Promise<unknown>) => {
      // `attempts` > 1: the earlier attempts run all their work, then the commit fails as a deadlock would.
      for (let attempt = 1; ; attempt += 1) {
        log.push('begin');
        try {
          const result = await work('tx');
          if (attempt < (options.attempts ?? 1)) {
            log.push('deadlock');
            continue;
          }
          log.push('commit');
          return result;
        } catch (err) {
          log.push('rollback');
          throw err;
        }
      }
    }),
    runAlone: jest.fn(async (work: (m: unknown) => Promise<unknown>) => work('autocommit')),
    lock: jest.fn(async (_id: string, mode: string) => (log.push(`lock ${mode}`), ride)),
    lockDue: jest.fn(async () => options.due ?? []),
    changeStatus: jest.fn(async (ids: string[], to: string) => (log.push(`status ${ids.length} ${to}`), true)),
    recordEvents: jest.fn(async (rows: unknown[]) => void log.push(`ride_events ${rows.length}`)),
  };
  const steps = {
    step: jest.fn(async (type: string, _id: string, _actor: unknown, _change: unknown, manager: unknown) => {
      log.push(`step ${type} in ${String(manager)}`);
      return { locked: ride, view: ride && { id: RIDE, status: 'driver_arrived' }, withdrawnBidders: [], ...options.step } as StepOutcome;
    }),
    insert: jest.fn(),
    actOnLocked: jest.fn(async (_id: string, _actor: unknown, lock: string, allowed: string, _ctes: unknown, manager: unknown) => {
      log.push(
        `act ${lock} in ${String(manager)} where ${allowed.includes("WHEN 'other' THEN l.status = 'requested' AND l.expires_at > now()") ? 'the bid rule' : allowed}`,
      );
      return { locked: ride, acted: { id: 'b1' } };
    }),
  };
  const reads = { findView: async () => ({ id: RIDE, status: 'accepted' }), findViews: async (ids: string[]) => ids.map((id) => ({ id })) };
  const bids = { withdrawPendingForRides: jest.fn(async (ids: string[]) => new Map(ids.map((id) => [id, [9]]))) };
  const accept = {
    validate: jest.fn(),
    locate: jest.fn(async () => log.push('locate')),
    run: jest.fn(async () => {
      log.push('run');
      return { result: { id: RIDE }, event: { name: 'ride.accepted', payload: {} } };
    }),
  };
  const arrive = { event: jest.fn(() => ({ name: 'ride.status_changed', payload: {} })) };
  const book = {
    transactional: false,
    create: jest.fn(async () => {
      log.push('create');
      return { result: { id: RIDE }, event: { name: 'ride.requested', payload: {} } };
    }),
  };
  const expire = { event: jest.fn((r: LockedRide) => ({ name: 'ride.expired', payload: { ride_id: r.id } })) };
  const dispatch = { columns: () => ({ expires_in_minutes: 5 }), event: jest.fn((r: LockedRide) => ({ name: 'ride.dispatched', payload: { ride_id: r.id } })) };
  const bid = {
    run: jest.fn(async () => ({ result: {} })),
    act: jest.fn(() => 'act AS (SELECT 1)'),
    settle: jest.fn(() => (log.push('settle'), { result: { id: 'b1' }, event: { name: 'bid.submitted', payload: {} } })),
  };
  const complete = { event: () => ({ name: 'ride.status_changed', payload: {} }), inTransaction: jest.fn(async () => void log.push('in transaction')) };
  const cancel = { event: () => ({ name: 'ride.cancelled', payload: {} }) };
  const schedule = { ...book, transactional: true };
  const table: Record<string, unknown> = { accept, arrive, bid, cancel, complete, book, schedule, no_step: { run: jest.fn() } };
  const handlers = { of: (type: string) => table[type], sweep: (type: string) => (type === 'expire' ? expire : dispatch) };
  const events = { publish: jest.fn((name: string) => log.push(`publish ${name}`)) };
  const engine = new RideTransitionsService(
    writes as unknown as RideWritesRepository,
    steps as unknown as RideStepsRepository,
    reads as unknown as RidesRepository,
    bids as unknown as BidsRepository,
    handlers as unknown as RideCommandHandlers,
    events as unknown as EventBus,
  );
  return { engine, log, writes, steps, bids, accept, arrive, book, expire, dispatch, events };
}

const codeOf = (err: RideError) => err.code ?? err.message;
const code = (promise: Promise<unknown>) => promise.then(() => 'resolved', codeOf);
const acceptBy = (t: ReturnType<typeof setup>, actor: RideActor = PASSENGER) => t.engine.apply(RIDE, { type: 'accept', bidId: RIDE }, actor);

describe('RideTransitionsService.apply: the order of refusals', () => {
  it('a ride id that is no UUID is not found, before any statement', async () => {
    const t = setup();
    expect(await code(t.engine.apply('nope', { type: 'arrive' }, DRIVER))).toBe('RIDE_NOT_FOUND');
    expect(t.log).toEqual([]);
  });

  it("the handler's validation refuses before any statement", async () => {
    const t = setup();
    t.accept.validate.mockImplementation(() => {
      throw new RideError('RIDE_NOT_FOUND', 'bad bid id');
    });
    expect(await code(acceptBy(t))).toBe('RIDE_NOT_FOUND');
    expect(t.log).toEqual([]);
  });

  it('a ride that does not exist is not found; nothing is published', async () => {
    const t = setup({ ride: undefined });
    expect(await code(acceptBy(t))).toBe('RIDE_NOT_FOUND');
    expect(t.log).toEqual(['begin', 'lock update', 'rollback']);
    expect(t.events.publish).not.toHaveBeenCalled();
  });

  it('a party the table does not name is told the ride does not exist, before the handler looks anything up', async () => {
    const t = setup();
    expect(await code(acceptBy(t, STRANGER))).toBe('RIDE_NOT_FOUND');
    expect(t.accept.locate).not.toHaveBeenCalled();
  });

  it("the handler's lookup refuses before the table judges the status (a bid of another ride is not found, whatever the status)", async () => {
    const t = setup({ ride: locked({ status: 'completed' }) });
    t.accept.locate.mockRejectedValue(new RideError('RIDE_NOT_FOUND', 'no such bid'));
    expect(await code(acceptBy(t))).toBe('RIDE_NOT_FOUND');
  });

  it("the table's status refusal comes before the handler runs", async () => {
    const t = setup({ ride: locked({ status: 'completed' }) });
    expect(await code(acceptBy(t))).toBe('RIDE_NOT_REQUESTED');
    expect(t.log).toEqual(['begin', 'lock update', 'locate', 'rollback']);
  });

  it('a time rule refuses as the status rule does (a request whose time is up)', async () => {
    const t = setup({ ride: locked({ past: { expires_at: true } }) });
    expect(await code(acceptBy(t))).toBe('RIDE_NOT_REQUESTED');
    expect(t.accept.run).not.toHaveBeenCalled();
  });

  it('a bid with hooks takes the run path, under the shared lock its row asks for', async () => {
    const t = setup();
    await code(t.engine.apply(RIDE, { type: 'bid', amountMinor: 1, etaMinutes: 1, driverCategoryId: null }, STRANGER, { after: async () => undefined }));
    expect(t.log[1]).toBe('lock share');
  });
});

describe('RideTransitionsService.apply: a step is one statement', () => {
  it('outside a transaction, then published', async () => {
    const t = setup({ ride: locked({ status: 'accepted' }) });
    await expect(t.engine.apply(RIDE, { type: 'arrive' }, DRIVER)).resolves.toEqual({ id: RIDE, status: 'driver_arrived' });
    expect(t.log).toEqual(['step arrive in autocommit', 'publish ride.status_changed']);
    expect(t.writes.runInTransaction).not.toHaveBeenCalled();
  });

  it('refused from the ride as its statement locked it: 404 to a stranger, the table refusal naming both statuses to its driver', async () => {
    const stranger = setup({ ride: locked({ status: 'accepted' }), step: { view: undefined } });
    expect(await code(stranger.engine.apply(RIDE, { type: 'arrive' }, STRANGER))).toBe('RIDE_NOT_FOUND');
    const early = setup({ ride: locked({ status: 'requested' }), step: { view: undefined } });
    await expect(early.engine.apply(RIDE, { type: 'arrive' }, DRIVER)).rejects.toMatchObject({
      code: 'INVALID_STATUS_TRANSITION',
      message: 'Cannot change a ride from requested to driver_arrived',
    });
    expect(early.events.publish).not.toHaveBeenCalled();
  });

  it('a statement that wrote nothing where the table allows it is an error, never a silent success', async () => {
    const t = setup({ ride: locked({ status: 'accepted' }), step: { view: undefined } });
    await expect(t.engine.apply(RIDE, { type: 'arrive' }, DRIVER)).rejects.toThrow('the arrive statement refused what the table allows');
    expect(t.events.publish).not.toHaveBeenCalled();
  });

  it('with hooks, inside their transaction between before and after; published after the commit', async () => {
    const t = setup({ ride: locked({ status: 'accepted' }) });
    const before = jest.fn(async () => void t.log.push('before'));
    const after = jest.fn(async () => void t.log.push('after'));
    await t.engine.apply(RIDE, { type: 'arrive' }, DRIVER, { before, after });
    expect(t.log).toEqual(['begin', 'before', 'step arrive in tx', 'after', 'commit', 'publish ride.status_changed']);
  });

  it("a handler's work that needs the transaction runs after the statement, inside it", async () => {
    const t = setup({ ride: locked({ status: 'started' }) });
    await t.engine.apply(RIDE, { type: 'complete' }, DRIVER);
    expect(t.log).toEqual(['begin', 'step complete in tx', 'in transaction', 'commit', 'publish ride.status_changed']);
  });

  it('answers each reader the ride as they may see it (the start PIN only to its passenger); the event keeps the whole view', async () => {
    const view = { id: RIDE, status: 'driver_arrived', passenger: { id: 1 }, start_pin: '0427' };
    const t = setup({ ride: locked({ status: 'accepted' }), step: { view: view as never } });
    await expect(t.engine.apply(RIDE, { type: 'arrive' }, DRIVER)).resolves.toEqual({ ...view, start_pin: null });
    await expect(t.engine.apply(RIDE, { type: 'cancel', reason: null }, PASSENGER)).resolves.toEqual(view);
    expect(t.arrive.event).toHaveBeenCalledWith(expect.objectContaining({ view }));
  });

  it("before's replay is the answer: the step is not applied", async () => {
    const t = setup();
    const replay = { id: RIDE, status: 'requested' };
    await expect(t.engine.apply(RIDE, { type: 'arrive' }, DRIVER, { before: async () => replay as never })).resolves.toBe(replay);
    expect(t.steps.step).not.toHaveBeenCalled();
    expect(t.events.publish).not.toHaveBeenCalled();
  });
});

describe('RideTransitionsService.apply: a command that changes no ride is one statement', () => {
  const bid = { type: 'bid', amountMinor: 1, etaMinutes: 1, driverCategoryId: null } as const;

  it("under its row's lock and rule, settled by the handler, then published", async () => {
    const t = setup();
    await expect(t.engine.apply(RIDE, bid, STRANGER)).resolves.toEqual({ id: 'b1' });
    expect(t.log).toEqual(['act share in autocommit where the bid rule', 'settle', 'publish bid.submitted']);
  });

  it("refused by the table before the handler's own checks: 404 to a party it does not name, its refusal to one it names", async () => {
    const gone = setup({ ride: undefined });
    expect(await code(gone.engine.apply(RIDE, bid, STRANGER))).toBe('RIDE_NOT_FOUND');
    const own = setup();
    expect(await code(own.engine.apply(RIDE, bid, DRIVER))).toBe('RIDE_NOT_REQUESTED');
    const late = setup({ ride: locked({ past: { expires_at: true } }) });
    expect(await code(late.engine.apply(RIDE, bid, STRANGER))).toBe('RIDE_NOT_REQUESTED');
    for (const t of [gone, own, late]) expect(t.events.publish).not.toHaveBeenCalled();
    expect(own.log).not.toContain('settle');
  });
});

describe('RideTransitionsService.apply: published only after the commit', () => {
  it('the handler runs in the transaction, the event follows the commit', async () => {
    const t = setup();
    await acceptBy(t);
    expect(t.log).toEqual(['begin', 'lock update', 'locate', 'run', 'commit', 'publish ride.accepted']);
  });

  it('nothing is published when the transaction rolls back after the handler', async () => {
    const t = setup();
    const after = async () => {
      throw new Error('hook failed');
    };
    await expect(t.engine.apply(RIDE, { type: 'accept', bidId: RIDE }, PASSENGER, { after })).rejects.toThrow('hook failed');
    expect(t.log.at(-1)).toBe('rollback');
    expect(t.events.publish).not.toHaveBeenCalled();
  });

  it("a handler's refusal is thrown after the commit (what it wrote to record it stays), with nothing published", async () => {
    const t = setup();
    t.accept.run.mockImplementationOnce(async () => (t.log.push('run'), { refusal: new RideError('WRONG_PIN') }) as never);
    expect(await code(acceptBy(t))).toBe('WRONG_PIN');
    expect(t.log).toEqual(['begin', 'lock update', 'locate', 'run', 'commit']);
    expect(t.events.publish).not.toHaveBeenCalled();
  });

  it('a transaction run again publishes once, for the attempt that committed', async () => {
    const t = setup({ attempts: 2 });
    await acceptBy(t);
    expect(t.accept.run).toHaveBeenCalledTimes(2);
    expect(t.events.publish).toHaveBeenCalledTimes(1);
    expect(t.log.slice(-2)).toEqual(['commit', 'publish ride.accepted']);
  });

  it('a booking with nothing else to do commits by itself; one with a lock to hold takes a transaction', async () => {
    const book = setup();
    await book.engine.apply(RIDE, { type: 'book', ride: {} as never }, PASSENGER);
    expect(book.log).toEqual(['create', 'publish ride.requested']);
    const schedule = setup();
    await schedule.engine.apply(RIDE, { type: 'schedule', ride: {} as never, pickupAt: '2030-01-01T10:00:00Z' }, PASSENGER);
    expect(schedule.log).toEqual(['begin', 'create', 'commit', 'publish ride.requested']);
  });

  it('the platform creates no ride', async () => {
    const t = setup();
    expect(await code(t.engine.apply(RIDE, { type: 'book', ride: {} as never }, 'system'))).toBe('RIDE_NOT_FOUND');
    expect(t.book.create).not.toHaveBeenCalled();
  });
});

describe('RideTransitionsService.sweep: in batches', () => {
  const due = (n: number, status: LockedRide['status'] = 'requested') =>
    Array.from({ length: n }, (_, i) =>
      locked({ id: `${RIDE.slice(0, -2)}${String(i).padStart(2, '0')}`, status, past: { expires_at: true, dispatch_at: true } }),
    );

  it('one status write, one bid withdrawal and one ride_events insert for the whole batch; an event per ride after the commit', async () => {
    const t = setup({ due: due(3) });
    await expect(t.engine.sweep('expire', 50)).resolves.toBe(3);
    expect(t.writes.lockDue).toHaveBeenCalledWith('expire', 50, 'tx');
    expect(t.log).toEqual(['begin', 'status 3 expired', 'ride_events 3', 'commit', 'publish ride.expired', 'publish ride.expired', 'publish ride.expired']);
    expect(t.bids.withdrawPendingForRides).toHaveBeenCalledTimes(1);
    expect(t.expire.event).toHaveBeenCalledWith(expect.objectContaining({ status: 'requested' }), { id: expect.any(String) }, [9]);
  });

  it('leaves a row the table would not take (the lock query and the table agree; checking again costs nothing)', async () => {
    const t = setup({ due: [...due(1), ...due(1, 'accepted')] });
    await expect(t.engine.sweep('expire', 50)).resolves.toBe(1);
  });

  it('an empty batch writes and publishes nothing', async () => {
    const t = setup({ due: [] });
    await expect(t.engine.sweep('expire', 50)).resolves.toBe(0);
    expect(t.log).toEqual(['begin', 'commit']);
  });

  it("writes the sweep handler's columns beside the status (dispatch starts the request's time to live)", async () => {
    const t = setup({ due: due(2, 'scheduled') });
    await t.engine.sweep('dispatch', 10);
    expect(t.writes.changeStatus).toHaveBeenCalledWith(expect.any(Array), 'requested', undefined, { expires_in_minutes: 5 }, 'tx');
    expect(t.bids.withdrawPendingForRides).not.toHaveBeenCalled();
  });
});

describe('RideTransitionsService.actOnRide', () => {
  it('locks nothing for a ride id that is no UUID', async () => {
    const t = setup();
    await expect(t.engine.actOnRide('nope', PASSENGER, 'share', { from: {} }, () => '')).resolves.toEqual({});
    expect(t.steps.actOnLocked).not.toHaveBeenCalled();
  });
});
