import type { RidesRepository } from '../read-models/rides.repository';
import type { ChangeContext } from '../transitions/ride-command';
import type { LockedRide } from '../transitions/ride-writes.repository';
import type { BidsRepository } from './bids.repository';
import { SubmitBidHandler } from './submit-bid.handler';

jest.mock('./bid-view', () => ({ ...jest.requireActual('./bid-view'), bidToJson: (row: object) => ({ ...row }) }));

function setup(options: { busy?: boolean; upserted?: boolean; passenger?: number | null; category?: number | null } = {}) {
  const bids = {
    upsertPending: jest.fn(async () => (options.upserted === false ? undefined : { id: 'b1' })),
    findView: jest.fn(async () => ({ id: 'b1', amount: 12 })),
  };
  const rides = { findAssignedRefOfDriver: jest.fn(async () => (options.busy ? { id: 'r0', passenger_id: 1 } : undefined)) };
  const handler = new SubmitBidHandler(bids as unknown as BidsRepository, rides as unknown as RidesRepository);
  const ctx = {
    command: { type: 'bid', amountMinor: 1200, etaMinutes: 4, driverCategoryId: 'category' in options ? options.category : 1 },
    actor: { id: 8 },
    ride: { id: 'r1', passenger_id: 'passenger' in options ? options.passenger : 7, vehicle_category_id: 1 } as LockedRide,
    tx: 'tx',
  } as unknown as ChangeContext<'bid'>;
  return { handler, ctx, bids };
}

describe('SubmitBidHandler', () => {
  it('places or replaces the driver’s bid and tells the passenger', async () => {
    const { handler, ctx, bids } = setup();
    await expect(handler.run(ctx)).resolves.toEqual({
      result: { id: 'b1', amount: 12 },
      event: { name: 'bid.submitted', payload: { ride_id: 'r1', passenger_id: 7, driver_id: 8, bid: { id: 'b1', amount: 12 } } },
    });
    expect(bids.upsertPending).toHaveBeenCalledWith('r1', 8, 1200, 4, 'tx');
  });

  it('refuses a driver whose vehicle category does not serve the ride, before anything else', async () => {
    const { handler, ctx, bids } = setup({ category: 2, busy: true });
    await expect(handler.run(ctx)).rejects.toMatchObject({ code: 'DRIVER_CANNOT_BID', message: 'Your vehicle category does not serve this ride' });
    expect(bids.upsertPending).not.toHaveBeenCalled();
  });

  it('refuses a driver on a ride, then a bid already settled', async () => {
    await expect(setup({ busy: true }).handler.run(setup().ctx)).rejects.toMatchObject({ code: 'DRIVER_BUSY' });
    await expect(setup({ upserted: false }).handler.run(setup().ctx)).rejects.toMatchObject({ code: 'BID_NOT_PENDING' });
  });

  it('announces nothing on a ride whose passenger is gone', async () => {
    const { handler, ctx } = setup({ passenger: null });
    await expect(handler.run(ctx)).resolves.toEqual({ result: { id: 'b1', amount: 12 } });
  });

  it('the platform does not bid', async () => {
    const { handler, ctx } = setup();
    await expect(handler.run({ ...ctx, actor: 'system' } as ChangeContext<'bid'>)).rejects.toThrow('the platform does not bid');
  });

  describe('as one statement', () => {
    const settle = (acted: Record<string, unknown> | undefined, options: Parameters<typeof setup>[0] = {}) => {
      const { handler, ctx } = setup(options);
      return () => handler.settle({ command: ctx.command, actor: ctx.actor, ride: ctx.ride }, acted);
    };

    it('upserts only where the rule, the category and a free driver allow, and reads the view back', () => {
      const params: unknown[] = [];
      const sql = setup().handler.act({ type: 'bid', amountMinor: 1200, etaMinutes: 4, driverCategoryId: 1 }, { id: 8 }, 'RULE', (v) => `$${params.push(v)}`);
      expect(sql).toMatch(/WHERE RULE AND \(\$2::int IS NULL OR \$2::int = l.vehicle_category_id\) AND NOT \(SELECT busy FROM busy\)/);
      expect(sql).toContain("WHERE b.status = 'pending'");
      expect(params).toEqual([8, 1, expect.any(String), 1200, 4]);
    });

    it('refuses in the order run refuses: category, busy, no longer pending', () => {
      expect(settle({ driver_busy: true, id: null }, { category: 2 })).toThrow(expect.objectContaining({ code: 'DRIVER_CANNOT_BID' }));
      expect(settle({ driver_busy: true, id: null })).toThrow(expect.objectContaining({ code: 'DRIVER_BUSY' }));
      expect(settle({ driver_busy: false, id: null })).toThrow(expect.objectContaining({ code: 'BID_NOT_PENDING' }));
    });

    it('answers the bid and tells the passenger', () => {
      expect(settle({ driver_busy: false, id: 'b1', amount: 12 })()).toEqual({
        result: { driver_busy: false, id: 'b1', amount: 12 },
        event: { name: 'bid.submitted', payload: { ride_id: 'r1', passenger_id: 7, driver_id: 8, bid: { driver_busy: false, id: 'b1', amount: 12 } } },
      });
    });
  });
});
