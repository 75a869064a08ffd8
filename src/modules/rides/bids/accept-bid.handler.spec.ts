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
  const drivers = {
    findDriver: jest.fn(async () => ('driver' in options ? options.driver : { status: 'approved' })),
    approvedDriverSql: (driverId: string) => `approved(${driverId})`,
  };
  const wallets = { covers: jest.fn(async () => options.covers ?? true), coversSql: (userId: string, amount: string) => `covers(${userId}, ${amount})` };
  const pinSettings = { ridePinSettingOf: jest.fn(async () => options.pin ?? 'off'), ridePinSettingSql: (userId: string) => `pin_setting(${userId})` };
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

describe('AcceptBidHandler as one statement (the step form, at steady state)', () => {
  const sourceOf = (command: { bidId: string; hold?: { amountMinor: number } }) => {
    const params: unknown[] = [];
    const sql = setup().handler.source({ type: 'accept', ...command }, (value) => `$${params.push(value)}`);
    return { sql, params };
  };
  afterEach(() => jest.useRealTimers());

  it('is a step only where the source row says every check of run holds, and never waits for a ride somebody holds', () => {
    const { handler } = setup();
    expect(handler.onlyWhere).toBe('coalesce((SELECT ready FROM src), false)');
    expect(handler.nowait).toBe(true);
  });

  it("asks the owners for their rules as SQL: the driver's approval, the wallet's cover, the passenger's PIN setting", () => {
    const { sql } = sourceOf({ bidId: BID.id });
    expect(sql).toContain('approved(a.driver_id)');
    expect(sql).toContain('covers(l.passenger_id, a.amount_minor)');
    expect(sql).toContain('pin_setting(l.passenger_id)');
    expect(sql).toMatch(/ORDER BY b\.id FOR UPDATE/);
  });

  it('passes the settings that need a PIN now (needsPin, asked of each) and a fresh PIN; the hold, if any', () => {
    jest.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z') });
    const day = sourceOf({ bidId: BID.id });
    expect(day.params).toEqual([BID.id, ['always'], expect.stringMatching(/^[0-9]{4}$/), null]);
    jest.setSystemTime(new Date('2026-11-27T23:00:00Z'));
    const night = sourceOf({ bidId: BID.id, hold: { amountMinor: 1500 } });
    expect(night.params).toEqual([BID.id, ['always', 'night'], expect.stringMatching(/^[0-9]{4}$/), 1500]);
  });

  it("writes run's columns from the bid, and a card ride's payment as held only with its hold", () => {
    const { handler } = setup();
    const fromBid = { driver_id: { src: 'driver_id' }, accepted_bid_id: { src: 'id' }, fare_minor: { src: 'amount_minor' }, start_pin: { src: 'start_pin' } };
    expect(handler.columns({ type: 'accept', bidId: BID.id })).toEqual(fromBid);
    expect(handler.columns({ type: 'accept', bidId: BID.id, hold: { amountMinor: 1200 } })).toEqual({ ...fromBid, payment_status: 'held' });
  });

  it('announces ride.accepted with the winner and the rejected drivers in bid id order, as run does (withdrawn bids elsewhere are not named)', () => {
    const { handler } = setup();
    const also = [
      { id: 'b3', driver_id: 11, status: 'rejected' },
      { id: 'b2', driver_id: 8, status: 'accepted' },
      { id: 'b1', driver_id: 9, status: 'rejected' },
      { id: 'b0', driver_id: 8, status: 'withdrawn' },
    ];
    const ride = { id: 'r1', status: 'requested', passenger_id: 7, driver_id: null } as LockedRide;
    const view = { id: 'r1', status: 'accepted' } as never;
    const event = handler.event({ command: { type: 'accept', bidId: 'b2' }, party: 'passenger', ride, view, withdrawnBidders: [], also });
    expect(event).toEqual({ name: 'ride.accepted', payload: { ride_id: 'r1', passenger_id: 7, driver_id: 8, rejected_driver_ids: [9, 11], ride: view } });
  });
});
