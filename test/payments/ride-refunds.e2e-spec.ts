import { executeCommand } from '../../src/cli/commands';
import { createOperator, createUser, fundWallet, TestOperator, TestUser } from '../support/factories';
import { accept, bookRide, onlineDriver, placeBid, setStatus } from '../rides/ride-helpers';
import { api, balanceOf, PaymentsWorld, saveCard, startPaymentsApp } from './payments-helpers';

/**
 * Operators' refunds of rides (CONTRACT §12, §13): POST /admin/rides/{ride_id}/refunds, finance and
 * admin only; card rides through Stripe, wallet rides back to the wallet, cash rides 409, never above
 * what was paid (409); the ride's refunded_amount and the audit entry commit with the refund.
 */
describe('operator refunds of rides', () => {
  let w: PaymentsWorld;
  let finance: TestOperator;

  beforeAll(async () => {
    w = await startPaymentsApp({ PLATFORM_COMMISSION_PERCENT: '10' });
    finance = await createOperator(w.t, 'finance');
  });
  afterAll(() => w.close());
  beforeEach(() => {
    w.fake.outage = undefined;
  });

  async function completedRide(method: 'card' | 'wallet' | 'cash'): Promise<{ passenger: TestUser; driver: TestUser; rideId: string }> {
    const passenger = await createUser(w.t);
    if (method === 'card') await saveCard(w, passenger);
    if (method === 'wallet') await fundWallet(w.t, passenger.id, 5000);
    const driver = await onlineDriver(w.t);
    const ride = await bookRide(w.t, passenger, { payment_method: method });
    const bid = await placeBid(w.t, driver, ride.id, 10);
    expect((await accept(w.t, passenger, ride.id, bid.id)).statusCode).toBe(200);
    for (const status of ['driver_arrived', 'started', 'completed']) expect((await setStatus(w.t, driver, ride.id, status)).statusCode).toBe(200);
    return { passenger, driver, rideId: ride.id };
  }

  const refund = (rideId: string, body: object, operator: { accessToken: string } = finance) =>
    w.t.request({ method: 'POST', url: `/api/v1/admin/rides/${rideId}/refunds`, token: operator.accessToken, payload: body });
  const rideOf = async (passenger: TestUser, rideId: string) => (await api(w.t, passenger, 'GET', `/rides/${rideId}`)).json();

  it('a card ride is refunded through Stripe (refund:{id}); refunded_amount and payment_status follow; the driver keeps the earning', async () => {
    const { passenger, driver, rideId } = await completedRide('card');
    const earned = await balanceOf(w.t, driver.id);
    const res = await refund(rideId, { amount: 4, reason: 'Driver took a long detour' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ id: expect.any(String), ride_id: rideId, amount: 4, currency: 'USD', created_at: expect.any(String) });
    const post = w.fake.posts().find((r) => r.path === '/v1/refunds' && r.idempotencyKey === `refund:${body.id}`);
    expect(post?.body).toMatchObject({ amount: '400', metadata: { ride_id: rideId } });
    expect(await rideOf(passenger, rideId)).toMatchObject({ refunded_amount: 4, payment_status: 'partially_refunded' });
    expect((await refund(rideId, { amount: 6, reason: 'The rest, after review' })).statusCode).toBe(201);
    expect(await rideOf(passenger, rideId)).toMatchObject({ refunded_amount: 10, payment_status: 'refunded' });
    expect(await balanceOf(w.t, driver.id)).toBe(earned);
    const [entry] = await w.t.db.query(`SELECT actor_id, action, target_type, reason, details FROM audit_log WHERE target_id = $1 ORDER BY id LIMIT 1`, [
      rideId,
    ]);
    expect(entry).toMatchObject({
      actor_id: finance.id,
      action: 'rides.refund',
      target_type: 'ride',
      reason: 'Driver took a long detour',
      details: { refund_id: body.id, amount_minor: 400 },
    });
  });

  it('never above what was paid: 409 "Refunds cannot exceed what the passenger paid for the ride", nothing recorded', async () => {
    const { passenger, rideId } = await completedRide('card');
    const res = await refund(rideId, { amount: 10.01, reason: 'Too much on purpose' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Refunds cannot exceed what the passenger paid for the ride' });
    expect(await rideOf(passenger, rideId)).toMatchObject({ refunded_amount: 0, payment_status: 'captured' });
    const [{ count }] = await w.t.db.query(`SELECT count(*)::int AS count FROM audit_log WHERE target_id = $1`, [rideId]);
    expect(count).toBe(0);
  });

  it('a wallet ride is refunded to the wallet; a cash ride is 409', async () => {
    const { passenger, rideId } = await completedRide('wallet');
    expect(await balanceOf(w.t, passenger.id)).toBe(4000);
    expect((await refund(rideId, { amount: 2.5, reason: 'Dirty car' })).statusCode).toBe(201);
    expect(await balanceOf(w.t, passenger.id)).toBe(4250);
    expect(await rideOf(passenger, rideId)).toMatchObject({ refunded_amount: 2.5, payment_status: null });
    const cash = await completedRide('cash');
    const res = await refund(cash.rideId, { amount: 1, reason: 'Cash cannot be refunded here' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Cash rides cannot be refunded through the service');
  });

  it('an outage is a 503 and nothing is refunded or audited', async () => {
    const { passenger, rideId } = await completedRide('card');
    w.fake.outage = 503;
    const res = await refund(rideId, { amount: 1, reason: 'Provider is down' });
    expect(res.statusCode).toBe(503);
    w.fake.outage = undefined;
    expect(await rideOf(passenger, rideId)).toMatchObject({ refunded_amount: 0 });
    const [{ count }] = await w.t.db.query(`SELECT count(*)::int AS count FROM audit_log WHERE target_id = $1`, [rideId]);
    expect(count).toBe(0);
  });

  it('support may not refund (403 "Not allowed for your role"); a bad body is 400; an unknown ride 404', async () => {
    const { rideId } = await completedRide('wallet');
    const support = await createOperator(w.t, 'support');
    const denied = await refund(rideId, { amount: 1, reason: 'Not my job' }, support);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Not allowed for your role');
    expect((await refund(rideId, { amount: 1 })).statusCode).toBe(400);
    expect((await refund(rideId, { amount: 0, reason: 'Zero is nothing' })).statusCode).toBe(400);
    expect((await refund('00000000-0000-4000-8000-000000000000', { amount: 1, reason: 'No such ride' })).statusCode).toBe(404);
    expect(await executeCommand(w.t.app, ['ledger:check'])).toMatch(/^Ledger balanced: /);
  });
});
