import type { AppConfig } from '../../../config/app-config';
import type { WalletsService } from '../../wallets/wallets.service';
import type { BiddingDriversPort } from '../bidding-drivers.port';
import type { RidePinSetting, RidePinSettingsPort } from '../ride-pin-settings.port';
import type { RidesRepository } from '../read-models/rides.repository';
import type { ChangeContext } from '../transitions/ride-command';
import type { LockedRide } from '../transitions/ride-writes.repository';
import { AcceptBidHandler } from './accept-bid.handler';
import type { BidRow, BidsRepository } from './bids.repository';

const BID: BidRow = { id: 'b2', ride_id: 'r1', driver_id: 8, amount_minor: 1200, eta_minutes: 4, status: 'pending' };
const OTHER: BidRow = { id: 'b1', ride_id: 'r1', driver_id: 9, amount_minor: 1300, eta_minutes: 5, status: 'pending' };

function setup(
  options: {
    locked?: BidRow[];
    driver?: { status: string } | undefined;
    busy?: boolean;
    covers?: boolean;
    changed?: boolean;
    payment?: 'cash' | 'wallet';
    pin?: RidePinSetting;
  } = {},
) {
  const log: string[] = [];
  const bids = {
    findOnRide: jest.fn(async (id: string) => (id === BID.id ? BID : undefined)),
    lockPendingForAcceptance: jest.fn(async () => (log.push('lock bids'), options.locked ?? [OTHER, BID])),
    settleAcceptance: jest.fn(async () => (log.push('settle'), [9])),
  };
  const rides = { findAssignedRefOfDriver: jest.fn(async () => (options.busy ? { id: 'r0', passenger_id: 1 } : undefined)) };
  const drivers = { findDriver: jest.fn(async () => ('driver' in options ? options.driver : { status: 'approved' })) };
  const wallets = { covers: jest.fn(async () => options.covers ?? true) };
  const pinSettings = { ridePinSettingOf: jest.fn(async () => options.pin ?? 'off') };
  const handler = new AcceptBidHandler(
    bids as unknown as BidsRepository,
    rides as unknown as RidesRepository,
    drivers as unknown as BiddingDriversPort,
    wallets as unknown as WalletsService,
    pinSettings as unknown as RidePinSettingsPort,
    { ridePinTimezone: 'UTC' } as AppConfig,
    {} as never,
  );
  const ctx = {
    command: { type: 'accept', bidId: BID.id },
    ride: { id: 'r1', status: 'requested', passenger_id: 7, driver_id: null, payment_method: options.payment ?? 'cash' } as LockedRide,
    tx: 'tx',
    changeStatus: jest.fn(async () => (log.push('status'), options.changed ?? true)),
    view: async () => ({ id: 'r1', status: 'accepted' }),
  } as unknown as ChangeContext<'accept'>;
  return { handler, ctx, bids, wallets, log };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: { code: string; message: string }) => `${e.code}: ${e.message}`,
  );

describe('AcceptBidHandler', () => {
  it('refuses a bid id that is no UUID before any lock', () => {
    expect(() => setup().handler.validate({ type: 'accept', bidId: 'nope' })).toThrow(expect.objectContaining({ code: 'BID_NOT_FOUND' }));
  });

  it('finds the bid only on this ride', async () => {
    const { handler, ctx } = setup();
    await expect(handler.locate({ ...ctx, command: { type: 'accept', bidId: 'elsewhere' } } as ChangeContext<'accept'>)).rejects.toMatchObject({
      code: 'BID_NOT_FOUND',
    });
    await expect(handler.locate(ctx)).resolves.toBe(BID);
  });

  it('accepts: bids locked, the ride assigned to the bidder at the bid’s amount, the other bids settled; ride.accepted names the rejected', async () => {
    const { handler, ctx, log } = setup();
    const outcome = await handler.run(ctx, BID);
    expect(log).toEqual(['lock bids', 'status', 'settle']);
    expect(ctx.changeStatus).toHaveBeenCalledWith({ driver_id: 8, accepted_bid_id: 'b2', fare_minor: 1200 });
    expect('event' in outcome && outcome.event).toEqual({
      name: 'ride.accepted',
      payload: { ride_id: 'r1', passenger_id: 7, driver_id: 8, rejected_driver_ids: [9], ride: { id: 'r1', status: 'accepted' } },
    });
  });

  it.each([
    ['a bid no longer pending', { locked: [OTHER] }, 'BID_NOT_PENDING'],
    ['a driver no longer approved', { driver: { status: 'suspended' } }, 'DRIVER_BUSY: Driver is no longer available'],
    ['a driver with no driver row', { driver: undefined }, 'DRIVER_BUSY: Driver is no longer available'],
    ['a driver already on a ride', { busy: true }, 'DRIVER_BUSY'],
    ['a wallet that does not cover the bid', { payment: 'wallet' as const, covers: false }, 'INSUFFICIENT_FUNDS'],
    ['the live-ride index refusing the driver', { changed: false }, 'DRIVER_BUSY'],
  ])('refuses %s, in that order, and settles nothing', async (_name, options, expected) => {
    const { handler, ctx, bids } = setup(options);
    expect(await codeOf(handler.run(ctx, BID))).toContain(expected);
    expect(bids.settleAcceptance).not.toHaveBeenCalled();
  });

  it("makes the ride's start PIN with the acceptance when the passenger's setting asks for one (CONTRACT §14)", async () => {
    const { handler, ctx } = setup({ pin: 'always' });
    await handler.run(ctx, BID);
    expect(ctx.changeStatus).toHaveBeenCalledWith({ driver_id: 8, accepted_bid_id: 'b2', fare_minor: 1200, start_pin: expect.stringMatching(/^[0-9]{4}$/) });
  });

  it('asks the wallet only for wallet rides', async () => {
    const { handler, ctx, wallets } = setup();
    await handler.run(ctx, BID);
    expect(wallets.covers).not.toHaveBeenCalled();
  });
});
