import type { PaymentsService } from '../../payments/payments.service';
import { WalletError } from '../../wallets/wallets.errors';
import type { WalletsService } from '../../wallets/wallets.service';
import type { LockedRide } from '../transitions/ride-writes.repository';
import type { RideTipsRepository, TipChargeState } from './ride-tips.repository';
import { TipRideHandler, TIP_WINDOW_HOURS } from './tip-ride.handler';

// The view's JSON is the read model's business (its own specs); here a row stands for itself.
jest.mock('../read-models/ride-view', () => ({ ...jest.requireActual('../read-models/ride-view'), rideToJson: (row: object) => ({ ...row }) }));

const PAID_AT = new Date('2030-01-01T10:00:00.000Z');
const PAID = { already_tipped: false, in_window: true, tip_wallets_found: true, tip_covered: true, tip_paid: true, id: 'r1', tipped_at: PAID_AT };

/**
 * The tip's own part of its one statement: what act composes, how settle refuses from what the
 * statement found (in the order the checks were made under the lock), and the card charge of
 * prepare. The statement itself runs against PostgreSQL in test/rides/tips and test/payments/card-rides.
 */
function setup(charge: Partial<TipChargeState> | null = {}) {
  const tips = {
    tipWhere: jest.fn((_tip: unknown, transfer: (part: object) => string) => `tip CTEs, ${transfer({ when: 'ok' })}`),
    chargeState: jest.fn(async () =>
      charge === null ? undefined : { payment_method: 'card', status: 'completed', passenger_id: 7, driver_id: 8, tipped: false, in_window: true, ...charge },
    ),
  };
  const wallets = {
    tipTransferSql: jest.fn(() => 'transfer CTEs'),
    tipTransferRefusal: jest.fn((row: { tip_wallets_found: boolean; tip_covered: boolean; tip_paid: boolean }) =>
      row.tip_paid ? undefined : new WalletError(row.tip_wallets_found ? 'INSUFFICIENT_FUNDS' : 'WALLET_NOT_FOUND'),
    ),
  };
  const payments = { chargeTip: jest.fn(async () => ({ paymentId: 'p1' })) };
  const handler = new TipRideHandler(tips as unknown as RideTipsRepository, wallets as unknown as WalletsService, payments as unknown as PaymentsService);
  const ride = { id: 'r1', status: 'completed', passenger_id: 7, driver_id: 8, payment_method: 'cash', currency: 'EUR ' } as LockedRide;
  const settle = (acted: object | undefined, locked: Partial<LockedRide> = {}, charged?: true) =>
    handler.settle({ command: { type: 'tip', amountMinor: 250, ...(charged && { charged }) }, ride: { ...ride, ...locked } }, acted as never);
  return { handler, tips, wallets, payments, settle };
}

describe('TipRideHandler', () => {
  it('act: the ride’s tip CTEs around the wallets module’s transfer, with the window and whether a card was charged', () => {
    const { handler, tips, wallets } = setup();
    const param = jest.fn(() => '$9');
    const sql = handler.act({ type: 'tip', amountMinor: 250 }, { id: 7 }, 'ALLOWED', param);
    expect(sql).toBe('tip CTEs, transfer CTEs');
    expect(tips.tipWhere).toHaveBeenCalledWith({ amountMinor: 250, windowHours: TIP_WINDOW_HOURS, charged: false }, expect.any(Function), 'ALLOWED', param);
    expect(wallets.tipTransferSql).toHaveBeenCalledWith({ when: 'ok' }, param);
    handler.act({ type: 'tip', amountMinor: 250, charged: true }, { id: 7 }, 'ALLOWED', param);
    expect(tips.tipWhere).toHaveBeenLastCalledWith(expect.objectContaining({ charged: true }), expect.any(Function), 'ALLOWED', param);
  });

  it('settle: the tip as the answer; ride.tipped carries it and the ride as the statement wrote it', () => {
    const { settle } = setup();
    const tip = { ride_id: 'r1', amount: 2.5, currency: 'EUR', created_at: PAID_AT.toISOString() };
    const outcome = settle(PAID);
    expect(outcome).toEqual({
      result: tip,
      event: { name: 'ride.tipped', payload: { ride_id: 'r1', passenger_id: 7, driver_id: 8, tip, ride: expect.objectContaining({ id: 'r1' }) } },
    });
  });

  it.each([
    ['a second tip', { already_tipped: true, in_window: false, tip_wallets_found: false }, {}, 'TIP_ALREADY_PAID'],
    ['a tip after the window', { in_window: false, tip_wallets_found: false }, {}, 'TIP_WINDOW_CLOSED'],
    ['a tip for a driver whose account is gone', { tip_wallets_found: false }, { driver_id: null }, 'RIDE_NOT_COMPLETED'],
    ['a tip with a wallet missing', { tip_wallets_found: false }, {}, 'WALLET_NOT_FOUND'],
    ['a tip the balance does not cover', { tip_covered: false }, {}, 'INSUFFICIENT_FUNDS'],
    ['a card ride’s tip prepare did not charge', { tip_wallets_found: false }, { payment_method: 'card' as const }, 'TIP_ALREADY_PAID'],
  ])('settle refuses %s (in that order)', (_name, found, locked, code) => {
    const { settle } = setup();
    expect(() => settle({ ...PAID, tip_paid: false, id: null, tipped_at: null, ...found }, locked)).toThrow(expect.objectContaining({ code }));
  });

  it('settle takes a card ride’s charged tip without a wallet transfer', () => {
    const { settle, wallets } = setup();
    const acted = { ...PAID, tip_wallets_found: false, tip_covered: false, tip_paid: false };
    expect(settle(acted, { payment_method: 'card' }, true)).toMatchObject({ result: { ride_id: 'r1', amount: 2.5 } });
    expect(wallets.tipTransferRefusal).not.toHaveBeenCalled();
  });

  it('prepare charges a card ride’s tip its passenger may still give, and nothing else', async () => {
    const card = setup();
    await expect(card.handler.prepare('r1', { type: 'tip', amountMinor: 250 }, { id: 7 })).resolves.toEqual({ type: 'tip', amountMinor: 250, charged: true });
    expect(card.tips.chargeState).toHaveBeenCalledWith('r1', TIP_WINDOW_HOURS);
    expect(card.payments.chargeTip).toHaveBeenCalledWith({ rideId: 'r1', passengerId: 7, driverId: 8, amountMinor: 250 });
    for (const [charge, actor] of [
      [{ payment_method: 'cash' }, 7],
      [{}, 9],
      [{ tipped: true }, 7],
      [{ in_window: false }, 7],
      [{ driver_id: null }, 7],
      [{ status: 'started' }, 7],
      [null, 7],
    ] as const) {
      const other = setup(charge as Partial<TipChargeState> | null);
      const command = { type: 'tip' as const, amountMinor: 250 };
      await expect(other.handler.prepare('r1', command, { id: actor })).resolves.toBe(command);
      expect(other.payments.chargeTip).not.toHaveBeenCalled();
    }
  });
});
