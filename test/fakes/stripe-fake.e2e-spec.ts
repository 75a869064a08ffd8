import { createServer } from 'node:http';
import Stripe from 'stripe';
import { startStripeFake, StripeFake } from './stripe-fake';

/** The fake answers the official library as Stripe would, and refuses what Stripe refuses. */
describe('the Stripe fake', () => {
  let fake: StripeFake;
  let stripe: Stripe;
  let n = 0;
  const key = (what: string): { idempotencyKey: string } => ({ idempotencyKey: `${what}:${(n += 1)}` });

  beforeAll(async () => {
    fake = await startStripeFake();
    const url = new URL(fake.url);
    stripe = new Stripe(fake.secretKey, { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.script = [];
    fake.outage = undefined;
  });

  async function customerWithCard(card = 'pm_card_visa'): Promise<{ customer: string; pm: string }> {
    const customer = await stripe.customers.create({ metadata: { user_id: '7' } }, key('customer'));
    const setup = await stripe.setupIntents.create({ customer: customer.id, usage: 'off_session' }, key('setup'));
    const { paymentMethod } = fake.confirmSetupIntent(setup.id, card);
    return { customer: customer.id, pm: paymentMethod.id };
  }

  it('refuses a wrong or missing secret key with 401 in Stripe’s error shape', async () => {
    const url = new URL(fake.url);
    const wrong = new Stripe('sk_test_wrong_key_000000', { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 });
    await expect(wrong.customers.create({}, key('c'))).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 });
    const res = await fetch(`${fake.url}/v1/customers`, { method: 'POST', headers: { 'idempotency-key': 'x' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('API key') } });
  });

  it('reads form encoding with brackets and refuses JSON bodies and POSTs without an Idempotency-Key', async () => {
    await stripe.accounts.create(
      { type: 'express', country: 'US', capabilities: { transfers: { requested: true } }, metadata: { driver_id: '9' } },
      key('acct'),
    );
    const last = fake.posts().at(-1)!;
    expect(last.raw).toContain('capabilities[transfers][requested]=true');
    expect(last.body).toMatchObject({ capabilities: { transfers: { requested: 'true' } }, metadata: { driver_id: '9' } });
    const json = await fetch(`${fake.url}/v1/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.secretKey}`, 'content-type': 'application/json', 'idempotency-key': 'j' },
      body: '{"metadata":{"user_id":"1"}}',
    });
    expect(json.status).toBe(400);
    const keyless = await fetch(`${fake.url}/v1/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'metadata[user_id]=1',
    });
    expect(keyless.status).toBe(400);
  });

  it('replays the same key and parameters, and answers idempotency_error for the same key with others', async () => {
    const first = await stripe.customers.create({ metadata: { user_id: '1' } }, { idempotencyKey: 'customer:1' });
    const again = await stripe.customers.create({ metadata: { user_id: '1' } }, { idempotencyKey: 'customer:1' });
    expect(again.id).toBe(first.id);
    expect(fake.requests.at(-1)!.replayed).toBe(true);
    expect(fake.objects.customer.has(first.id)).toBe(true);
    await expect(stripe.customers.create({ metadata: { user_id: '2' } }, { idempotencyKey: 'customer:1' })).rejects.toMatchObject({
      type: 'StripeIdempotencyError',
      statusCode: 400,
    });
  });

  it('holds, captures at most the amount and refuses to cancel a captured intent', async () => {
    const { customer, pm } = await customerWithCard();
    const params = {
      amount: 1200,
      currency: 'usd',
      customer,
      payment_method: pm,
      capture_method: 'manual' as const,
      confirm: true,
      off_session: true,
      metadata: { ride_id: 'r1' },
    };
    const hold = await stripe.paymentIntents.create(params, key('hold'));
    expect(hold).toMatchObject({ status: 'requires_capture', amount_capturable: 1200 });
    await expect(stripe.paymentIntents.capture(hold.id, { amount_to_capture: 1300 }, key('cap'))).rejects.toMatchObject({
      statusCode: 400,
      code: 'amount_too_large',
    });
    const captured = await stripe.paymentIntents.capture(hold.id, { amount_to_capture: 1000 }, key('cap'));
    expect(captured).toMatchObject({ status: 'succeeded', amount_received: 1000 });
    await expect(stripe.paymentIntents.cancel(hold.id, {}, key('cancel'))).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
    const released = await stripe.paymentIntents.create(params, key('hold'));
    expect((await stripe.paymentIntents.cancel(released.id, {}, key('cancel'))).status).toBe('canceled');
    await expect(stripe.paymentIntents.capture(released.id, {}, key('cap'))).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
  });

  it('checks amounts and currencies, and a card that is not the customer’s', async () => {
    const { customer, pm } = await customerWithCard();
    const base = { customer, payment_method: pm, confirm: true, off_session: true };
    await expect(stripe.paymentIntents.create({ ...base, amount: 12.5, currency: 'usd' }, key('h'))).rejects.toMatchObject({
      statusCode: 400,
      param: 'amount',
    });
    await expect(stripe.paymentIntents.create({ ...base, amount: 0, currency: 'usd' }, key('h'))).rejects.toMatchObject({ statusCode: 400 });
    await expect(stripe.paymentIntents.create({ ...base, amount: 500, currency: 'USD' }, key('h'))).rejects.toMatchObject({ param: 'currency' });
    const other = await customerWithCard();
    await expect(stripe.paymentIntents.create({ ...base, payment_method: other.pm, amount: 500, currency: 'usd' }, key('h'))).rejects.toMatchObject({
      param: 'payment_method',
    });
  });

  it.each([
    ['pm_card_chargeDeclined', 'generic_decline'],
    ['pm_card_visa_chargeDeclined', 'generic_decline'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
  ])('declines %s with 402 card_error (%s), leaving the intent requires_payment_method, replayed for its key', async (card, declineCode) => {
    const { customer, pm } = await customerWithCard(card);
    const params = { amount: 900, currency: 'usd', customer, payment_method: pm, capture_method: 'manual' as const, confirm: true, off_session: true };
    const error = await stripe.paymentIntents.create(params, { idempotencyKey: `decline:${card}` }).catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'StripeCardError', statusCode: 402, code: 'card_declined', decline_code: declineCode });
    const intentId = (error as { raw: { payment_intent: { id: string } } }).raw.payment_intent.id;
    expect(fake.objects.payment_intent.get(intentId)!.status).toBe('requires_payment_method');
    await expect(stripe.paymentIntents.create(params, { idempotencyKey: `decline:${card}` })).rejects.toMatchObject({ statusCode: 402 });
    expect(fake.requests.at(-1)!.replayed).toBe(true);
  });

  it('lists, detaches and refunds up to what was captured', async () => {
    const { customer, pm } = await customerWithCard();
    const second = fake.attachTestCard(customer, 'pm_card_mastercard');
    const list = await stripe.customers.listPaymentMethods(customer, { type: 'card' });
    expect(list.data.map((c) => c.id)).toEqual([second.id, pm]);
    const paid = await stripe.paymentIntents.create(
      { amount: 2000, currency: 'usd', customer, payment_method: pm, confirm: true, off_session: true },
      key('tip'),
    );
    expect(paid.status).toBe('succeeded');
    const refund = await stripe.refunds.create({ payment_intent: paid.id, amount: 1500, metadata: { ride_id: 'r' } }, key('refund'));
    expect(refund).toMatchObject({ amount: 1500, status: 'succeeded', payment_intent: paid.id });
    await expect(stripe.refunds.create({ payment_intent: paid.id, amount: 600 }, key('refund'))).rejects.toMatchObject({
      statusCode: 400,
      code: 'amount_too_large',
    });
    await stripe.paymentMethods.detach(second.id, {}, key('detach'));
    expect((await stripe.customers.listPaymentMethods(customer, { type: 'card' })).data.map((c) => c.id)).toEqual([pm]);
    await expect(stripe.paymentMethods.detach(second.id, {}, key('detach'))).rejects.toMatchObject({ statusCode: 400 });
  });

  it('transfers only to an onboarded account, and refuses the next transfer on request', async () => {
    const account = await stripe.accounts.create({ type: 'express', country: 'US', capabilities: { transfers: { requested: true } } }, key('acct'));
    const link = await stripe.accountLinks.create(
      { account: account.id, type: 'account_onboarding', refresh_url: 'https://x.test/r', return_url: 'https://x.test/d' },
      key('link'),
    );
    expect(link.url).toMatch(/^http/);
    await expect(
      stripe.accountLinks.create({ account: account.id, type: 'account_onboarding', refresh_url: '/r', return_url: '/d' }, key('link')),
    ).rejects.toMatchObject({ statusCode: 400 });
    const transfer = { amount: 1500, currency: 'usd', destination: account.id, metadata: { payout_id: 'p' } };
    await expect(stripe.transfers.create(transfer, key('payout'))).rejects.toMatchObject({ param: 'destination' });
    expect(fake.completeOnboarding(account.id)).toMatchObject({ payouts_enabled: true });
    fake.refuseNextTransfer();
    await expect(stripe.transfers.create(transfer, key('payout'))).rejects.toMatchObject({ statusCode: 400, code: 'balance_insufficient' });
    expect((await stripe.transfers.create(transfer, key('payout'))).amount).toBe(1500);
  });

  it('answers the scripted outages: 5xx, 429, no answer, and a response lost after the request ran', async () => {
    fake.script = [503, 429];
    await expect(stripe.customers.create({}, key('c'))).rejects.toMatchObject({ statusCode: 503 });
    await expect(stripe.customers.create({}, key('c'))).rejects.toMatchObject({ type: 'StripeRateLimitError' });
    fake.script = ['hang'];
    await expect(stripe.customers.create({}, { ...key('c'), timeout: 200 })).rejects.toMatchObject({ type: 'StripeConnectionError' });
    // The library resends a request whose connection closed (same key): the replay, not a second customer.
    fake.script = ['drop'];
    const before = fake.objects.customer.size;
    const created = await stripe.customers.create({}, key('lost'));
    expect(fake.objects.customer.size).toBe(before + 1);
    expect(fake.requests.slice(-2).map((r) => [r.idempotencyKey, r.replayed])).toEqual([
      [expect.stringMatching(/^lost:/), false],
      [expect.stringMatching(/^lost:/), true],
    ]);
    expect(fake.objects.customer.has(created.id)).toBe(true);
  });

  it('signs webhook events as Stripe does (the library verifies them)', async () => {
    const received: Array<{ header: string; body: string }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push({ header: String(req.headers['stripe-signature']), body });
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address() as { port: number };
    try {
      const event = fake.event('account.updated', { id: 'acct_1', payouts_enabled: true });
      expect((await fake.sendWebhook(`http://127.0.0.1:${address.port}/hook`, event)).status).toBe(200);
      const [{ header, body }] = received as [{ header: string; body: string }];
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(stripe.webhooks.constructEvent(body, header, fake.webhookSecret).id).toBe(event.id);
      expect(() => stripe.webhooks.constructEvent(body, header, 'whsec_other')).toThrow();
    } finally {
      server.close();
    }
  });
});
