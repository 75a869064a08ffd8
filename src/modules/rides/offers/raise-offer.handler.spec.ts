import type { AppConfig } from '../../../config/app-config';
import type { ChangeContext } from '../transitions/ride-command';
import type { LockedRide, RideWritesRepository } from '../transitions/ride-writes.repository';
import { RaiseOfferHandler } from './raise-offer.handler';

function setup(offeredFareMinor: number, current: number | null) {
  const writes = { setOfferedFare: jest.fn(async () => undefined) };
  const handler = new RaiseOfferHandler(writes as unknown as RideWritesRepository, { minOfferPercent: 80 } as AppConfig);
  const ctx = {
    command: { type: 'raise_offer', offeredFareMinor },
    ride: { id: 'r1', status: 'requested', passenger_id: 7, vehicle_category_id: 2, offered_fare_minor: current, estimated_fare_minor: 1000 } as LockedRide,
    tx: 'tx',
    view: async () => ({ id: 'r1', pickup: { latitude: 1, longitude: 2, address: 'x' } }),
  } as unknown as ChangeContext<'raise_offer'>;
  return { handler, ctx, writes };
}

describe('RaiseOfferHandler', () => {
  it('writes the higher price and announces the request again, as ride.offer_raised', async () => {
    const { handler, ctx, writes } = setup(1100, 1000);
    const outcome = await handler.run(ctx);
    if ('refusal' in outcome) throw outcome.refusal;
    expect(writes.setOfferedFare).toHaveBeenCalledWith('r1', 1100, 'tx');
    expect(outcome.event).toEqual({
      name: 'ride.offer_raised',
      payload: { ride_id: 'r1', passenger_id: 7, vehicle_category_id: 2, pickup: { latitude: 1, longitude: 2 }, ride: outcome.result },
    });
  });

  it('refuses a price that is not higher than the current offer, writing nothing', async () => {
    const { handler, ctx, writes } = setup(1000, 1000);
    await expect(handler.run(ctx)).rejects.toMatchObject({
      code: 'INVALID_RIDE_REQUEST',
      message: 'offered_fare must be higher than the current offer (10.00)',
    });
    expect(writes.setOfferedFare).not.toHaveBeenCalled();
  });

  it('holds a first offer to the booking minimum of the stored estimate', async () => {
    const { handler, ctx } = setup(799, null);
    await expect(handler.run(ctx)).rejects.toMatchObject({ code: 'INVALID_RIDE_REQUEST' });
    await expect(setup(800, null).handler.run(setup(800, null).ctx)).resolves.toBeDefined();
  });
});
