import { Client } from 'pg';
import { EventBus } from '../../src/common/events/event-bus';
import { createUser } from '../support/factories';
import { waitFor } from '../support/wait';
import { api, PaymentsWorld, saveCard, startPaymentsApp } from './payments-helpers';

/** CONTRACT §12 "Webhooks": signed raw bodies, each event applied once, the events it names. */
describe('Stripe webhooks', () => {
  let w: PaymentsWorld;

  beforeAll(async () => {
    w = await startPaymentsApp();
  });
  afterAll(() => w.close());

  const send = (event: object, sign?: Parameters<PaymentsWorld['fake']['sendWebhook']>[2]) => w.fake.sendWebhook(w.webhookUrl, event, sign);

  async function onboardedAccount(): Promise<{ driverId: number; accountId: string; token: string }> {
    const driver = await createUser(w.t, { role: 'driver' });
    expect((await api(w.t, driver, 'POST', '/driver/payouts/account')).statusCode).toBe(201);
    const [row] = await w.t.db.query(`SELECT stripe_account_id FROM payout_accounts WHERE driver_id = $1`, [driver.id]);
    return { driverId: driver.id, accountId: row.stripe_account_id, token: driver.accessToken };
  }

  it('refuses a delivery whose signature does not verify: 400, nothing applied', async () => {
    const { accountId, driverId } = await onboardedAccount();
    const event = w.fake.event('account.updated', w.fake.completeOnboarding(accountId));
    const payload = JSON.stringify(event);
    const cases = [
      await send(event, { secret: 'whsec_not_the_secret' }),
      await send(event, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
      await send(event, { header: '' }),
      await send(event, { header: 't=1,v1=zz' }),
      await send({ ...event, id: 'evt_tampered' }, { header: w.fake.signatureHeader(payload) }),
    ];
    for (const res of cases) {
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Invalid webhook signature' });
    }
    const unsigned = await w.t.request({ method: 'POST', url: '/api/v1/payments/stripe/webhook', payload, headers: { 'content-type': 'application/json' } });
    expect(unsigned.statusCode).toBe(400);
    expect(await w.t.db.query(`SELECT payouts_enabled FROM payout_accounts WHERE driver_id = $1`, [driverId])).toEqual([{ payouts_enabled: false }]);
  });

  it('accepts a header where any v1 matches, and the raw body as Stripe sent it (spacing and key order kept)', async () => {
    const { accountId, driverId, token } = await onboardedAccount();
    const event = w.fake.event('account.updated', w.fake.completeOnboarding(accountId));
    const payload = `{ "id" : "${event.id}",\n  "type":"account.updated", "object": "event", "data": ${JSON.stringify(event.data)} }`;
    const good = w.fake.signatureHeader(payload);
    const [t, v1] = good.split(',');
    const res = await fetch(w.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': `${t},v1=${'0'.repeat(64)},${v1}` },
      body: payload,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect((await w.t.request({ method: 'GET', url: '/api/v1/driver/profile', token })).json().payouts_enabled).toBe(true);
    expect(driverId).toBeGreaterThan(0);
  });

  it('account.updated makes the driver ready; a redelivery is a 200 with no effect', async () => {
    const { accountId, token } = await onboardedAccount();
    const ready = w.fake.event('account.updated', w.fake.completeOnboarding(accountId));
    const notReady = w.fake.event('account.updated', w.fake.completeOnboarding(accountId, false));
    expect((await send(ready)).status).toBe(200);
    const profile = () => w.t.request({ method: 'GET', url: '/api/v1/driver/profile', token });
    expect((await profile()).json().payouts_enabled).toBe(true);
    expect((await send(notReady)).status).toBe(200);
    expect((await profile()).json().payouts_enabled).toBe(false);
    const again = await send(ready);
    expect(again.status).toBe(200);
    expect((await profile()).json().payouts_enabled).toBe(false);
  });

  it('setup_intent.succeeded makes that card the default when the customer has none', async () => {
    const passenger = await createUser(w.t);
    const first = await api(w.t, passenger, 'POST', '/payments/cards/setup');
    const { setupIntent, paymentMethod } = w.fake.confirmSetupIntent(first.json().setup_intent_id, 'pm_card_visa');
    const newer = await saveCard(w, passenger, 'pm_card_mastercard');
    const defaultOf = async () => (await api(w.t, passenger, 'GET', '/payments/cards')).json().items.find((c: { is_default: boolean }) => c.is_default).id;
    expect(await defaultOf()).toBe(newer);
    expect((await send(w.fake.event('setup_intent.succeeded', setupIntent))).status).toBe(200);
    expect(await defaultOf()).toBe(paymentMethod.id);
    const later = w.fake.confirmSetupIntent((await api(w.t, passenger, 'POST', '/payments/cards/setup')).json().setup_intent_id, 'pm_card_amex');
    expect((await send(w.fake.event('setup_intent.succeeded', later.setupIntent))).status).toBe(200);
    expect(await defaultOf()).toBe(paymentMethod.id);
  });

  it('an unknown event type is a 200, recorded once', async () => {
    const event = w.fake.event('customer.created', { id: 'cus_x', object: 'customer' });
    expect((await send(event)).status).toBe(200);
    expect((await send(event)).status).toBe(200);
    expect(await w.t.db.query(`SELECT type FROM stripe_webhook_events WHERE id = $1`, [event.id])).toEqual([{ type: 'customer.created' }]);
  });

  it('a redelivery racing its first delivery waits on the event id, then does nothing', async () => {
    const { accountId, driverId } = await onboardedAccount();
    const published: unknown[] = [];
    w.t.get(EventBus).subscribe('payout_account.updated', (e) => void published.push(e));
    const event = w.fake.event('account.updated', w.fake.completeOnboarding(accountId));
    // Hold the account's row so that the first delivery stops inside its transaction, after claiming the id.
    const blocker = new Client({ connectionString: w.t.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`SELECT 1 FROM payout_accounts WHERE driver_id = $1 FOR UPDATE`, [driverId]);
      const waiting = async (): Promise<string[]> =>
        // Read outside the blocker's transaction: pg_stat_activity is a snapshot per transaction.
        (
          (await w.t.db.query(
            `SELECT left(query, 40) AS q FROM pg_stat_activity
              WHERE datname = current_database() AND state = 'active' AND wait_event_type = 'Lock' ORDER BY query_start`,
          )) as Array<{ q: string }>
        ).map((r: { q: string }) => r.q.trim().split(/\s+/).slice(0, 3).join(' '));
      const first = send(event);
      await waitFor('the first delivery to wait on the account row', async () => (await waiting()).length === 1);
      const second = send(event);
      await waitFor('the redelivery to wait', async () => (await waiting()).length === 2);
      // The redelivery waits on the event id the first delivery claimed, not on the effect.
      expect(await waiting()).toEqual(['UPDATE payout_accounts SET', 'INSERT INTO stripe_webhook_events']);
      await blocker.query('COMMIT');
      expect([(await first).status, (await second).status]).toEqual([200, 200]);
    } finally {
      await blocker.end();
    }
    await waitFor('the event', () => published.length > 0);
    expect(published).toEqual([{ driver_id: driverId, payouts_enabled: true }]);
  });
});
