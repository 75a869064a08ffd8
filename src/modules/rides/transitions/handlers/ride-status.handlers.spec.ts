import { createHash } from 'node:crypto';
import type { AppConfig } from '../../../../config/app-config';
import type { WalletsService } from '../../../wallets/wallets.service';
import type { RideView } from '../../read-models/ride-view';
import { RideError } from '../../rides.errors';
import type { StepDone } from '../ride-command';
import type { LockedRide } from '../ride-writes.repository';
import { ARRIVE_HANDLER, CompleteRideHandler, EXPIRE_HANDLER, NO_STEP_HANDLER, StartRideHandler } from './ride-status.handlers';
import type { ChangeContext } from '../ride-command';
import { CancelRideHandler } from './cancel-ride.handler';
import type { CancellationFee } from './cancellation-fee';
import type { RideWritesRepository } from '../ride-writes.repository';

const RIDE = { id: 'r1', status: 'accepted', passenger_id: 7, driver_id: 8, payment_method: 'cash', fare_minor: 1250, currency: 'EUR ' } as LockedRide;
const VIEW = { id: 'r1', status: 'driver_arrived', passenger: { id: 7 } } as RideView;

function done<K extends 'arrive' | 'complete' | 'cancel'>(overrides: Partial<StepDone<K>> = {}): StepDone<K> {
  return { command: { type: 'arrive' }, party: 'driver', ride: RIDE, view: VIEW, withdrawnBidders: [], also: false, ...overrides } as StepDone<K>;
}

describe('arrive (one statement)', () => {
  it('announces ride.status_changed with the new status and the driver the ride had', () => {
    expect(ARRIVE_HANDLER.event(done())).toEqual({
      name: 'ride.status_changed',
      payload: { ride_id: 'r1', passenger_id: 7, driver_id: 8, status: 'driver_arrived', ride: VIEW },
    });
  });

  it('writes nothing beside the status', () => {
    expect(ARRIVE_HANDLER.columns).toBeUndefined();
    expect(ARRIVE_HANDLER.reason).toBeUndefined();
  });
});

describe('StartRideHandler (in the transaction: the PIN is compared here, a wrong one counted)', () => {
  function setup(ride: Partial<LockedRide>, pin?: string) {
    const log: string[] = [];
    const writes = { countWrongPin: jest.fn(async () => void log.push('count')) };
    const started = { ...VIEW, status: 'started' } as RideView;
    const ctx = {
      command: pin === undefined ? { type: 'start' } : { type: 'start', pin },
      ride: { ...RIDE, status: 'driver_arrived', start_pin: null, start_pin_failures: 0, ...ride },
      tx: 'tx',
      changeStatus: jest.fn(async () => (log.push('status'), true)),
      view: async () => started,
    } as unknown as ChangeContext<'start'>;
    return { handler: new StartRideHandler(writes as unknown as RideWritesRepository), ctx, log, started };
  }

  it('starts a ride without a PIN, or with its PIN, announcing ride.status_changed', async () => {
    for (const t of [setup({}), setup({ start_pin: '0427' }, '0427')]) {
      await expect(t.handler.run(t.ctx)).resolves.toEqual({
        result: t.started,
        event: { name: 'ride.status_changed', payload: { ride_id: 'r1', passenger_id: 7, driver_id: 8, status: 'started', ride: t.started } },
      });
      expect(t.log).toEqual(['status']);
    }
  });

  it.each([
    ['a wrong PIN', '1234'],
    ['no PIN', undefined],
  ])('%s is counted and refused (the refusal follows the commit), the ride unchanged', async (_name, sent) => {
    const t = setup({ start_pin: '0427', start_pin_failures: 4 }, sent);
    await expect(t.handler.run(t.ctx)).resolves.toEqual({ refusal: new RideError('WRONG_PIN') });
    expect(t.log).toEqual(['count']);
  });

  it('after 5 wrong tries even the right PIN is refused, and nothing more is counted', async () => {
    const t = setup({ start_pin: '0427', start_pin_failures: 5 }, '0427');
    await expect(t.handler.run(t.ctx)).resolves.toEqual({ refusal: new RideError('TOO_MANY_WRONG_PINS') });
    expect(t.log).toEqual([]);
  });

  it('is one statement without a PIN, or with the right one and tries left: the sent PIN as its digest, none as null', () => {
    const { handler } = setup({});
    const sqlOf = (pin?: string) => {
      const params: unknown[] = [];
      const sql = handler.onlyWhere(pin === undefined ? { type: 'start' } : { type: 'start', pin }, (value) => `$${params.push(value)}`);
      return { sql, params };
    };
    const sent = sqlOf('0427');
    expect(sent.sql).toBe("l.start_pin IS NULL OR (l.start_pin_failures < $2::int AND sha256(convert_to(l.start_pin, 'UTF8')) = $1::bytea)");
    expect(sent.params).toEqual([createHash('sha256').update('0427').digest(), 5]);
    expect(sqlOf().params).toEqual([null, 5]);
    expect(handler.event(done<'arrive'>({ view: { ...VIEW, status: 'started' } }) as never)).toMatchObject({
      name: 'ride.status_changed',
      payload: { status: 'started' },
    });
  });
});

describe('CompleteRideHandler (in the transaction: a card is captured before the status changes)', () => {
  function setup(ride: Partial<LockedRide> = {}, options: { paid?: boolean; capture?: 'captured' | 'failed' } = {}) {
    const log: string[] = [];
    const writes = { insertPayment: jest.fn(async () => (log.push('payment'), options.paid !== true)) };
    const wallets = { payRide: jest.fn(async () => void log.push('wallet')) };
    const payments = { captureFare: jest.fn(async () => (log.push('capture'), { status: options.capture ?? 'captured' })) };
    const config = { platformCommissionPercent: 20 } as AppConfig;
    const handler = new CompleteRideHandler(writes as unknown as RideWritesRepository, wallets as unknown as WalletsService, payments as never, config);
    const ctx = {
      command: { type: 'complete' },
      ride: { ...RIDE, status: 'started', ...ride },
      tx: 'tx',
      changeStatus: jest.fn(async () => (log.push('status'), true)),
      view: async () => ({ ...VIEW, status: 'completed' }),
    } as unknown as ChangeContext<'complete'>;
    return { handler, ctx, log, wallets, writes };
  }

  it('a cash ride: the status, then its payment row with the commission; ride.status_changed', async () => {
    const t = setup();
    const outcome = await t.handler.run(t.ctx);
    expect(t.log).toEqual(['status', 'payment']);
    expect(t.writes.insertPayment).toHaveBeenCalledWith(
      { rideId: 'r1', driverId: 8, method: 'cash', fareMinor: 1250, commissionMinor: 250, currency: 'EUR' },
      'tx',
    );
    expect(outcome).toMatchObject({ event: { name: 'ride.status_changed', payload: { status: 'completed', driver_id: 8 } } });
  });

  it('a wallet ride moves the fare wallet to wallet in the same transaction', async () => {
    const t = setup({ payment_method: 'wallet' });
    await t.handler.run(t.ctx);
    expect(t.wallets.payRide).toHaveBeenCalledWith('tx', { rideId: 'r1', passengerId: 7, driverId: 8, fareMinor: 1250, commissionMinor: 250 });
  });

  it('a card ride is captured first; a refused capture still completes, payment failed and no payment row', async () => {
    const ok = setup({ payment_method: 'card' });
    await ok.handler.run(ok.ctx);
    expect(ok.log).toEqual(['capture', 'status', 'payment']);
    expect(ok.ctx.changeStatus).toHaveBeenCalledWith({ payment_status: 'captured' });
    const refused = setup({ payment_method: 'card' }, { capture: 'failed' });
    await refused.handler.run(refused.ctx);
    expect(refused.log).toEqual(['capture', 'status']);
    expect(refused.ctx.changeStatus).toHaveBeenCalledWith({ payment_status: 'failed' });
  });

  it('a cash ride not yet paid is a step: its payment row in the same statement, with the commission in basis points', () => {
    const { handler } = setup();
    expect(handler.onlyWhere).toBe("l.payment_method = 'cash' AND NOT EXISTS (SELECT 1 FROM ride_payments p WHERE p.ride_id = l.id)");
    const params: unknown[] = [];
    expect(handler.also((value) => `$${params.push(value)}`)).toContain('FROM changed c ON CONFLICT (ride_id) DO NOTHING');
    expect(params).toEqual([2000]);
    expect(handler.event(done<'complete'>({ view: { ...VIEW, status: 'completed' } }))).toMatchObject({
      name: 'ride.status_changed',
      payload: { status: 'completed' },
    });
  });

  it('refuses a ride already paid (the transaction rolls back)', async () => {
    const t = setup({ payment_method: 'wallet' }, { paid: true });
    await expect(t.handler.run(t.ctx)).rejects.toEqual(new RideError('INVALID_STATUS_TRANSITION', 'Ride is already paid'));
    expect(t.wallets.payRide).not.toHaveBeenCalled();
  });
});

describe('CancelRideHandler as a step (a cash ride: no money to settle)', () => {
  const handler = new CancelRideHandler({} as CancellationFee);

  it('records who cancelled as the acting party, and the reason on the ride and its ride_events row', () => {
    const command = { type: 'cancel', reason: 'Plans changed' } as const;
    expect(handler.onlyWhere).toBe("l.payment_method = 'cash'");
    expect(handler.columns(command)).toEqual({ cancelled_by: 'party', cancel_reason: 'Plans changed' });
    expect(handler.reason(command)).toBe('Plans changed');
  });

  it.each(['passenger', 'driver', 'operator'] as const)('announces ride.cancelled by the %s, telling the drivers whose bids it withdrew', (party) => {
    const cancelled = { ...VIEW, status: 'cancelled' } as RideView;
    expect(handler.event(done<'cancel'>({ party, view: cancelled, withdrawnBidders: [4, 5] }))).toEqual({
      name: 'ride.cancelled',
      payload: { ride_id: 'r1', passenger_id: 7, driver_id: 8, bidder_driver_ids: [4, 5], cancelled_by: party, ride: cancelled },
    });
  });
});

describe('no_step and expire', () => {
  it('no_step never runs: its row allows no status', () => {
    expect(() => NO_STEP_HANDLER.run({} as never, undefined)).toThrow('never runs');
  });

  it('expire announces ride.expired per ride, with the drivers whose bids it withdrew', () => {
    expect(EXPIRE_HANDLER.event(RIDE, VIEW, [3])).toEqual({
      name: 'ride.expired',
      payload: { ride_id: 'r1', passenger_id: 7, bidder_driver_ids: [3], ride: VIEW },
    });
  });
});
