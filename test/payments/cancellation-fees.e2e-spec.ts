import { executeCommand } from '../../src/cli/commands';
import { createOperator, createUser, fundWallet, TestUser } from '../support/factories';
import { accept, bookRide, cancel, onlineDriver, placeBid, setStatus } from '../rides/ride-helpers';
import { api, balanceOf, PaymentsWorld, saveCard, startPaymentsApp } from './payments-helpers';

/**
 * The cancellation fee and the no-show (CONTRACT §12): CANCELLATION_FEE (3.00 here) after
 * CANCELLATION_FREE_SECONDS, or on the driver's no-show report after NO_SHOW_WAIT_SECONDS; from the
 * card's hold (the rest released) or the wallet (as far as it goes), never cash; the driver's own
 * cancel costs nothing. Times are moved back in the database instead of waited for.
 */
describe('cancellation fees and no-shows', () => {
  let w: PaymentsWorld;

  beforeAll(async () => {
    w = await startPaymentsApp({ CANCELLATION_FEE: '3.00', CANCELLATION_FREE_SECONDS: '120', NO_SHOW_WAIT_SECONDS: '300', PLATFORM_COMMISSION_PERCENT: '10' });
  });
  afterAll(() => w.close());

  type Method = 'card' | 'wallet' | 'cash';

  async function acceptedRide(method: Method, amount = 10): Promise<{ passenger: TestUser; driver: TestUser; rideId: string }> {
    const passenger = await createUser(w.t);
    if (method === 'card') await saveCard(w, passenger);
    if (method === 'wallet') await fundWallet(w.t, passenger.id, 5000);
    const driver = await onlineDriver(w.t);
    const ride = await bookRide(w.t, passenger, { payment_method: method });
    const bid = await placeBid(w.t, driver, ride.id, amount);
    expect((await accept(w.t, passenger, ride.id, bid.id)).statusCode).toBe(200);
    return { passenger, driver, rideId: ride.id };
  }

  const acceptedAgo = (rideId: string, seconds: number) =>
    w.t.db.query(`UPDATE rides SET accepted_at = now() - make_interval(secs => $2) WHERE id = $1`, [rideId, seconds]);
  const arrivedAgo = (rideId: string, seconds: number) =>
    w.t.db.query(`UPDATE rides SET arrived_at = now() - make_interval(secs => $2) WHERE id = $1`, [rideId, seconds]);
  const noShow = (driver: TestUser, rideId: string) => api(w.t, driver, 'POST', `/rides/${rideId}/no-show`);
  const holdOf = (rideId: string) =>
    [...w.fake.objects.payment_intent.values()].find((pi) => pi.metadata?.ride_id === rideId && pi.capture_method === 'manual')!;

  it('a card ride cancelled late by the passenger pays the fee from the hold (the rest released) to the driver, no commission', async () => {
    const { passenger, driver, rideId } = await acceptedRide('card');
    await acceptedAgo(rideId, 121);
    const before = await balanceOf(w.t, driver.id);
    const res = await cancel(w.t, passenger, rideId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', cancelled_by: 'passenger', payment_status: 'captured', cancellation_fee: 3 });
    expect(holdOf(rideId)).toMatchObject({ status: 'succeeded', amount_received: 300 });
    expect(w.fake.posts().some((r) => r.idempotencyKey === `ride:${rideId}:fee`)).toBe(true);
    expect(await balanceOf(w.t, driver.id)).toBe(before + 300);
  });

  it('within CANCELLATION_FREE_SECONDS the passenger cancels free; the driver always does', async () => {
    const early = await acceptedRide('wallet');
    expect((await cancel(w.t, early.passenger, early.rideId)).json()).toMatchObject({ cancellation_fee: null, payment_status: null });
    expect(await balanceOf(w.t, early.passenger.id)).toBe(5000);
    const late = await acceptedRide('wallet');
    await acceptedAgo(late.rideId, 3600);
    expect((await cancel(w.t, late.driver, late.rideId)).json()).toMatchObject({ cancelled_by: 'driver', cancellation_fee: null });
    expect(await balanceOf(w.t, late.passenger.id)).toBe(5000);
  });

  it('a wallet ride pays the fee from the wallet; a cash ride never pays one', async () => {
    const full = await acceptedRide('wallet');
    await acceptedAgo(full.rideId, 500);
    expect((await cancel(w.t, full.passenger, full.rideId)).json()).toMatchObject({ cancellation_fee: 3 });
    expect(await balanceOf(w.t, full.passenger.id)).toBe(4700);
    const cash = await acceptedRide('cash');
    await acceptedAgo(cash.rideId, 500);
    expect((await cancel(w.t, cash.passenger, cash.rideId)).json()).toMatchObject({ cancellation_fee: null, payment_status: null });
  });

  it('the fee is never more than the fare', async () => {
    const { passenger, rideId } = await acceptedRide('card', 2);
    await acceptedAgo(rideId, 500);
    expect((await cancel(w.t, passenger, rideId)).json()).toMatchObject({ cancellation_fee: 2, payment_status: 'captured' });
  });

  it('no-show: 409 "Wait for the passenger a little longer" before NO_SHOW_WAIT_SECONDS; then cancelled by the driver, reason no_show, fee charged', async () => {
    const { passenger, driver, rideId } = await acceptedRide('card');
    expect((await noShow(driver, rideId)).statusCode).toBe(409);
    expect((await setStatus(w.t, driver, rideId, 'driver_arrived')).statusCode).toBe(200);
    const early = await noShow(driver, rideId);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Wait for the passenger a little longer' });
    expect((await noShow(passenger, rideId)).statusCode).toBe(403);
    await arrivedAgo(rideId, 300);
    const res = await noShow(driver, rideId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'cancelled',
      cancelled_by: 'driver',
      cancel_reason: 'no_show',
      cancellation_fee: 3,
      payment_status: 'captured',
    });
    expect((await noShow(driver, rideId)).statusCode).toBe(409);
  });

  it('no-show on a wallet ride takes the fee from the wallet; on a cash ride nothing', async () => {
    for (const method of ['wallet', 'cash'] as const) {
      const { passenger, driver, rideId } = await acceptedRide(method);
      await setStatus(w.t, driver, rideId, 'driver_arrived');
      await arrivedAgo(rideId, 301);
      const res = await noShow(driver, rideId);
      expect(res.json()).toMatchObject({ cancel_reason: 'no_show', cancellation_fee: method === 'wallet' ? 3 : null });
      if (method === 'wallet') expect(await balanceOf(w.t, passenger.id)).toBe(4700);
    }
  });

  it("an operator's cancel costs the passenger nothing: the hold is released", async () => {
    const { rideId } = await acceptedRide('card');
    await acceptedAgo(rideId, 3600);
    const support = await createOperator(w.t, 'support');
    const res = await w.t.request({
      method: 'POST',
      url: `/api/v1/admin/rides/${rideId}/cancel`,
      token: support.accessToken,
      payload: { reason: 'Passenger called support' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', cancelled_by: 'operator', cancellation_fee: null, payment_status: 'released' });
    expect(holdOf(rideId).status).toBe('canceled');
  });

  it('the ledger balances after every fee', async () => {
    expect(await executeCommand(w.t.app, ['ledger:check'])).toMatch(/^Ledger balanced: /);
  });
});
