import type { WalletsService } from '../../wallets/wallets.service';
import type { ChangeContext } from '../transitions/ride-command';
import type { LockedRide, RideWritesRepository } from '../transitions/ride-writes.repository';
import { TipRideHandler, TIP_WINDOW_HOURS } from './tip-ride.handler';

const PAID_AT = new Date('2030-01-01T10:00:00.000Z');

function setup(state: { tipped?: boolean; in_window?: boolean } = {}, ride: Partial<LockedRide> = {}) {
  const log: string[] = [];
  const writes = {
    tipState: jest.fn(async () => ({ tipped: false, in_window: true, ...state })),
    recordTip: jest.fn(async () => (log.push('record'), PAID_AT)),
  };
  const wallets = { payTip: jest.fn(async () => void log.push('pay')) };
  const handler = new TipRideHandler(writes as unknown as RideWritesRepository, wallets as unknown as WalletsService, {} as never, {} as never);
  const ctx = {
    command: { type: 'tip', amountMinor: 250 },
    ride: { id: 'r1', status: 'completed', passenger_id: 7, driver_id: 8, currency: 'EUR ', ...ride } as LockedRide,
    tx: 'tx',
    view: async () => ({ id: 'r1', tip: 2.5 }),
  } as unknown as ChangeContext<'tip'>;
  return { handler, ctx, writes, wallets, log };
}

describe('TipRideHandler', () => {
  it('pays the tip wallet to wallet, then writes it on the ride; ride.tipped carries the tip', async () => {
    const { handler, ctx, writes, wallets, log } = setup();
    const outcome = await handler.run(ctx);
    expect(writes.tipState).toHaveBeenCalledWith('r1', TIP_WINDOW_HOURS, 'tx');
    expect(wallets.payTip).toHaveBeenCalledWith('tx', { rideId: 'r1', passengerId: 7, driverId: 8, amountMinor: 250 });
    expect(log).toEqual(['pay', 'record']);
    const tip = { ride_id: 'r1', amount: 2.5, currency: 'EUR', created_at: PAID_AT.toISOString() };
    expect(outcome).toEqual({
      result: tip,
      event: { name: 'ride.tipped', payload: { ride_id: 'r1', passenger_id: 7, driver_id: 8, tip, ride: { id: 'r1', tip: 2.5 } } },
    });
  });

  it.each([
    ['a second tip', { tipped: true, in_window: false }, {}, 'TIP_ALREADY_PAID'],
    ['a tip after the window', { in_window: false }, {}, 'TIP_WINDOW_CLOSED'],
    ['a tip for a driver whose account is gone', {}, { driver_id: null }, 'RIDE_NOT_COMPLETED'],
  ])('refuses %s (in that order), paying nothing', async (_name, state, ride, code) => {
    const { handler, ctx, wallets } = setup(state, ride);
    await expect(handler.run(ctx)).rejects.toMatchObject({ code });
    expect(wallets.payTip).not.toHaveBeenCalled();
  });
});
