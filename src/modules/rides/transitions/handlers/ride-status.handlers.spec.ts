import type { AppConfig } from '../../../../config/app-config';
import type { WalletsService } from '../../../wallets/wallets.service';
import type { RideView } from '../../read-models/ride-view';
import { RideError } from '../../rides.errors';
import type { ChangeContext, StepDone } from '../ride-command';
import type { LockedRide, RideWritesRepository } from '../ride-writes.repository';
import { CANCEL_HANDLER, CompleteRideHandler, EXPIRE_HANDLER, NO_STEP_HANDLER, stepHandler } from './ride-status.handlers';

const RIDE = { id: 'r1', status: 'accepted', passenger_id: 7, driver_id: 8, payment_method: 'cash', fare_minor: 1250, currency: 'EUR ' } as LockedRide;
const VIEW = { id: 'r1', status: 'driver_arrived', passenger: { id: 7 } } as RideView;

function done<K extends 'arrive' | 'start' | 'cancel'>(overrides: Partial<StepDone<K>> = {}): StepDone<K> {
  return { command: { type: 'arrive' }, party: 'driver', ride: RIDE, view: VIEW, withdrawnBidders: [], ...overrides } as StepDone<K>;
}

describe('arrive and start (one statement)', () => {
  it('announce ride.status_changed with the new status and the driver the ride had', () => {
    expect(stepHandler<'arrive'>().event(done())).toEqual({
      name: 'ride.status_changed',
      payload: { ride_id: 'r1', passenger_id: 7, driver_id: 8, status: 'driver_arrived', ride: VIEW },
    });
  });

  it('write nothing beside the status', () => {
    const handler = stepHandler<'start'>();
    expect(handler.columns).toBeUndefined();
    expect(handler.reason).toBeUndefined();
  });
});

describe('cancel (one statement)', () => {
  it('records who cancelled as the acting party, and the reason on the ride and its ride_events row', () => {
    const command = { type: 'cancel', reason: 'Plans changed' } as const;
    expect(CANCEL_HANDLER.columns!(command)).toEqual({ cancelled_by: 'party', cancel_reason: 'Plans changed' });
    expect(CANCEL_HANDLER.reason!(command)).toBe('Plans changed');
  });

  it.each([
    ['passenger', 'passenger'],
    ['driver', 'driver'],
    ['operator', 'operator'],
  ] as const)('announces ride.cancelled by the %s, telling the drivers whose bids it withdrew', (party, by) => {
    const cancelled = { ...VIEW, status: 'cancelled' } as RideView;
    expect(CANCEL_HANDLER.event(done<'cancel'>({ party, view: cancelled, withdrawnBidders: [4, 5] }))).toEqual({
      name: 'ride.cancelled',
      payload: { ride_id: 'r1', passenger_id: 7, driver_id: 8, bidder_driver_ids: [4, 5], cancelled_by: by, ride: cancelled },
    });
  });
});

describe('CompleteRideHandler', () => {
  function setup(ride: Partial<LockedRide> = {}, paid = true) {
    const log: string[] = [];
    const writes = { insertPayment: jest.fn(async () => (log.push('payment'), paid)) };
    const wallets = { payRide: jest.fn(async () => void log.push('wallet')) };
    const handler = new CompleteRideHandler(writes as unknown as RideWritesRepository, wallets as unknown as WalletsService, { platformCommissionPercent: 20 } as AppConfig);
    const ctx = {
      ride: { ...RIDE, status: 'started', ...ride },
      tx: 'tx',
      changeStatus: jest.fn(async () => (log.push('status'), true)),
      view: async () => ({ ...VIEW, status: 'completed' }),
    } as unknown as ChangeContext<'complete'>;
    return { handler, ctx, writes, wallets, log };
  }

  it('changes the status, then pays the ride once: fare, commission, driver earning, in the ride currency trimmed', async () => {
    const { handler, ctx, writes, wallets, log } = setup();
    const outcome = await handler.run(ctx);
    expect(log).toEqual(['status', 'payment']);
    expect(writes.insertPayment).toHaveBeenCalledWith({ rideId: 'r1', driverId: 8, method: 'cash', fareMinor: 1250, commissionMinor: 250, currency: 'EUR' }, 'tx');
    expect(wallets.payRide).not.toHaveBeenCalled();
    expect(outcome.event).toMatchObject({ name: 'ride.status_changed', payload: { status: 'completed', driver_id: 8 } });
  });

  it('moves a wallet ride’s fare from wallet to wallet in the same transaction', async () => {
    const { handler, ctx, wallets } = setup({ payment_method: 'wallet' });
    await handler.run(ctx);
    expect(wallets.payRide).toHaveBeenCalledWith('tx', { rideId: 'r1', passengerId: 7, driverId: 8, fareMinor: 1250, commissionMinor: 250 });
  });

  it('refuses a ride already paid', async () => {
    const { handler, ctx, wallets } = setup({}, false);
    await expect(handler.run(ctx)).rejects.toEqual(new RideError('INVALID_STATUS_TRANSITION', 'Ride is already paid'));
    expect(wallets.payRide).not.toHaveBeenCalled();
  });
});

describe('no_step and expire', () => {
  it('no_step never runs: its row allows no status', () => {
    expect(() => NO_STEP_HANDLER.run({} as never, undefined)).toThrow('never runs');
  });

  it('expire announces ride.expired per ride, with the drivers whose bids it withdrew', () => {
    expect(EXPIRE_HANDLER.event(RIDE, VIEW, [3])).toEqual({ name: 'ride.expired', payload: { ride_id: 'r1', passenger_id: 7, bidder_driver_ids: [3], ride: VIEW } });
  });
});
