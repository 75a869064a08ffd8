import { executeCommand } from '../../src/cli/commands';
import { createOperator, createUser, TestUser } from '../support/factories';
import { LiveClient } from '../realtime/live-client';
import { accept, bookRide, onlineDriver, placeBid, setStatus } from '../rides/ride-helpers';
import { api, PaymentsWorld, saveCard, startPaymentsApp } from './payments-helpers';

/**
 * Stripe's webhooks that change a ride (CONTRACT §12): charge.refunded (a refund made in Stripe's
 * dashboard: refunded_amount follows, with its ledger entry), payment_intent.canceled on a held
 * ride (payment_status failed, and `payment_failed` to operators' live sockets), each once.
 */
describe('webhooks that change a ride', () => {
  let w: PaymentsWorld;

  beforeAll(async () => {
    w = await startPaymentsApp();
  });
  afterAll(() => w.close());

  async function cardRide(complete: boolean): Promise<{ passenger: TestUser; rideId: string; intentId: string }> {
    const passenger = await createUser(w.t);
    await saveCard(w, passenger);
    const driver = await onlineDriver(w.t);
    const ride = await bookRide(w.t, passenger, { payment_method: 'card' });
    const bid = await placeBid(w.t, driver, ride.id, 10);
    expect((await accept(w.t, passenger, ride.id, bid.id)).statusCode).toBe(200);
    if (complete) for (const status of ['driver_arrived', 'started', 'completed']) await setStatus(w.t, driver, ride.id, status);
    const intent = [...w.fake.objects.payment_intent.values()].find((pi) => pi.metadata?.ride_id === ride.id)!;
    return { passenger, rideId: ride.id, intentId: intent.id };
  }
  const send = (event: object) => w.fake.sendWebhook(w.webhookUrl, event);
  const rideOf = async (passenger: TestUser, rideId: string) => (await api(w.t, passenger, 'GET', `/rides/${rideId}`)).json();

  it('charge.refunded from the dashboard: refunded_amount follows the charge, recorded once with its ledger entry', async () => {
    const { passenger, rideId, intentId } = await cardRide(true);
    const charge = w.fake.refundInDashboard(intentId, 300);
    const event = w.fake.event('charge.refunded', charge);
    expect((await send(event)).status).toBe(200);
    expect(await rideOf(passenger, rideId)).toMatchObject({ refunded_amount: 3, payment_status: 'partially_refunded' });
    // Redelivered, and the next refund's event: each Stripe refund is recorded once.
    expect((await send(event)).status).toBe(200);
    const second = w.fake.event('charge.refunded', w.fake.refundInDashboard(intentId, 700));
    expect((await send(second)).status).toBe(200);
    expect(await rideOf(passenger, rideId)).toMatchObject({ refunded_amount: 10, payment_status: 'refunded' });
    const refunds = await w.t.db.query(`SELECT amount_minor, source FROM payment_refunds WHERE ride_id = $1 ORDER BY amount_minor`, [rideId]);
    expect(refunds).toEqual([
      { amount_minor: 300, source: 'provider' },
      { amount_minor: 700, source: 'provider' },
    ]);
    expect(await executeCommand(w.t.app, ['ledger:check'])).toMatch(/^Ledger balanced: /);
  });

  it('races: one event delivered five times at once, and two events naming the same refunds, record each refund once', async () => {
    const { passenger, rideId, intentId } = await cardRide(true);
    const charge = w.fake.refundInDashboard(intentId, 250);
    const first = w.fake.event('charge.refunded', charge);
    const second = w.fake.event('charge.refunded', charge);
    const answers = await Promise.all([first, first, second, first, second, first].map((e) => send(e)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const refunds = await w.t.db.query(`SELECT amount_minor FROM payment_refunds WHERE ride_id = $1`, [rideId]);
    expect(refunds).toEqual([{ amount_minor: 250 }]);
    expect(await rideOf(passenger, rideId)).toMatchObject({ refunded_amount: 2.5, payment_status: 'partially_refunded' });
    expect(await executeCommand(w.t.app, ['ledger:check'])).toMatch(/^Ledger balanced: /);
  });

  it('an operator refund seen again as charge.refunded changes nothing', async () => {
    const { passenger, rideId, intentId } = await cardRide(true);
    const finance = await createOperator(w.t, 'finance');
    const res = await w.t.request({
      method: 'POST',
      url: `/api/v1/admin/rides/${rideId}/refunds`,
      token: finance.accessToken,
      payload: { amount: 4, reason: 'Long detour' },
    });
    expect(res.statusCode).toBe(201);
    const charge = w.fake.objects.charge.get(w.fake.objects.payment_intent.get(intentId)!.latest_charge as string)!;
    expect((await send(w.fake.event('charge.refunded', charge))).status).toBe(200);
    expect(await rideOf(passenger, rideId)).toMatchObject({ refunded_amount: 4 });
    const [{ count }] = await w.t.db.query(`SELECT count(*)::int AS count FROM payment_refunds WHERE ride_id = $1`, [rideId]);
    expect(count).toBe(1);
  });

  it('payment_intent.canceled on a held ride: payment_status failed, and payment_failed reaches operators’ live sockets once', async () => {
    const operator = await createOperator(w.t, 'support');
    const live = await LiveClient.connect(w.t, operator.accessToken);
    try {
      const { passenger, rideId, intentId } = await cardRide(false);
      const intent = w.fake.objects.payment_intent.get(intentId)!;
      intent.status = 'canceled';
      const event = w.fake.event('payment_intent.canceled', intent);
      expect((await send(event)).status).toBe(200);
      expect(await rideOf(passenger, rideId)).toMatchObject({ status: 'accepted', payment_status: 'failed' });
      const message = await live.next('payment_failed');
      expect(message).toMatchObject({ type: 'payment_failed', ride_id: rideId, data: { ride: { id: rideId, payment_status: 'failed' } } });
      expect((await send(event)).status).toBe(200);
      await live.sync();
      expect(live.received.filter((m) => m.type === 'payment_failed')).toHaveLength(1);
    } finally {
      await live.close();
    }
  });

  it('payment_intent.canceled after our own release leaves the ride released', async () => {
    const { passenger, rideId, intentId } = await cardRide(false);
    expect((await api(w.t, passenger, 'POST', `/rides/${rideId}/cancel`)).statusCode).toBe(200);
    expect((await send(w.fake.event('payment_intent.canceled', w.fake.objects.payment_intent.get(intentId)!))).status).toBe(200);
    expect(await rideOf(passenger, rideId)).toMatchObject({ status: 'cancelled', payment_status: 'released' });
  });
});
