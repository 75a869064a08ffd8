import { PaymentsService } from '../../src/modules/payments/payments.service';
import { createUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { api } from './payments-helpers';
import { bookingBody } from '../rides/ride-helpers';

/** Without STRIPE_SECRET_KEY (CONTRACT §12): every card endpoint is a 400, so are payouts and the webhook. */
describe('payments without Stripe configured', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('every card endpoint answers 400 "Card payments are not available"', async () => {
    const passenger = await createUser(t);
    for (const [method, url, body] of [
      ['POST', '/payments/cards/setup', undefined],
      ['GET', '/payments/cards', undefined],
      ['PUT', '/payments/cards/default', { card_id: 'pm_1' }],
      ['DELETE', '/payments/cards/pm_1', undefined],
      ['POST', '/rides/book', bookingBody({ payment_method: 'card' })],
    ] as const) {
      const res = await api(t, passenger, method, url, body);
      expect([url, res.statusCode, res.json()]).toEqual([url, 400, { statusCode: 400, error: 'Bad Request', message: 'Card payments are not available' }]);
    }
    const payments = t.get(PaymentsService);
    expect(payments.cardPaymentsAvailable).toBe(false);
    await expect(payments.requireSavedCard(passenger.id)).rejects.toMatchObject({ code: 'CARD_PAYMENTS_UNAVAILABLE' });
    await expect(payments.holdFare({ rideId: 'r', passengerId: passenger.id, fareMinor: 100 })).rejects.toMatchObject({ code: 'CARD_PAYMENTS_UNAVAILABLE' });
  });

  it('payouts answer 400 "Payouts are not available"; the profile says payouts are not enabled', async () => {
    const driver = await createUser(t, { role: 'driver' });
    for (const res of [await api(t, driver, 'POST', '/driver/payouts/account'), await api(t, driver, 'POST', '/driver/payouts', { amount: 20 })]) {
      expect([res.statusCode, res.json().message]).toEqual([400, 'Payouts are not available']);
    }
    expect((await api(t, driver, 'GET', '/driver/payouts')).json()).toEqual({ items: [], page: 1, limit: 20, total: 0 });
    expect((await api(t, driver, 'GET', '/driver/profile')).json().payouts_enabled).toBe(false);
  });

  it('the webhook cannot verify anything: 400', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/payments/stripe/webhook',
      payload: '{"id":"evt_1","type":"account.updated"}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    });
    expect([res.statusCode, res.json().message]).toEqual([400, 'Invalid webhook signature']);
  });
});
