import { PaymentsService } from '../../src/modules/payments/payments.service';
import { createUser } from '../support/factories';
import { acceptedRide } from '../rides/ride-helpers';
import { api, PaymentsWorld, saveCard, startPaymentsApp } from './payments-helpers';

/** CONTRACT §12 "Cards": setup, list, default, detach, against the Stripe fake. */
describe('cards', () => {
  let w: PaymentsWorld;

  beforeAll(async () => {
    w = await startPaymentsApp();
  });
  afterAll(() => w.close());
  beforeEach(() => {
    w.fake.script = [];
    w.fake.outage = undefined;
  });

  const customersOf = (userId: number) => w.fake.posts().filter((r) => r.path === '/v1/customers' && r.idempotencyKey === `customer:${userId}`);

  it('setup creates the caller’s Stripe customer once, then a SetupIntent for off-session use', async () => {
    const passenger = await createUser(w.t);
    const first = await api(w.t, passenger, 'POST', '/payments/cards/setup');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ client_secret: expect.stringMatching(/^seti_.+_secret_/), setup_intent_id: expect.stringMatching(/^seti_/) });
    const second = await api(w.t, passenger, 'POST', '/payments/cards/setup');
    expect(second.json().setup_intent_id).not.toBe(first.json().setup_intent_id);
    expect(customersOf(passenger.id).map((r) => r.body)).toEqual([{ metadata: { user_id: String(passenger.id) } }]);
    const [row] = await w.t.db.query(`SELECT stripe_customer_id FROM payment_customers WHERE user_id = $1`, [passenger.id]);
    const intents = w.fake.posts().filter((r) => r.path === '/v1/setup_intents' && r.body.customer === row.stripe_customer_id);
    expect(intents.map((r) => r.body)).toEqual([
      { customer: row.stripe_customer_id, usage: 'off_session' },
      { customer: row.stripe_customer_id, usage: 'off_session' },
    ]);
    expect(intents.every((r) => r.idempotencyKey?.startsWith(`customer:${passenger.id}:setup:`))).toBe(true);
  });

  it('concurrent first setups make one customer', async () => {
    const passenger = await createUser(w.t);
    const results = await Promise.all(Array.from({ length: 4 }, () => api(w.t, passenger, 'POST', '/payments/cards/setup')));
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const created = customersOf(passenger.id).filter((r) => !r.replayed);
    expect(created).toHaveLength(1);
    expect(await w.t.db.query(`SELECT count(*)::int AS n FROM payment_customers WHERE user_id = $1`, [passenger.id])).toEqual([{ n: 1 }]);
  });

  it('lists the cards from Stripe, newest first; the default is the chosen one, else the newest', async () => {
    const passenger = await createUser(w.t);
    expect((await api(w.t, passenger, 'GET', '/payments/cards')).json()).toEqual({ items: [] });
    const visa = await saveCard(w, passenger, 'pm_card_visa');
    const mastercard = await saveCard(w, passenger, 'pm_card_mastercard');
    const listed = await api(w.t, passenger, 'GET', '/payments/cards');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items).toEqual([
      { id: mastercard, brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: expect.any(Number), is_default: true },
      { id: visa, brand: 'visa', last4: '4242', exp_month: 12, exp_year: expect.any(Number), is_default: false },
    ]);
    const chosen = await api(w.t, passenger, 'PUT', '/payments/cards/default', { card_id: visa });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().items.map((c: { id: string; is_default: boolean }) => [c.id, c.is_default])).toEqual([
      [mastercard, false],
      [visa, true],
    ]);
    expect(w.fake.requests.some((r) => r.method === 'GET' && r.path.endsWith('/payment_methods'))).toBe(true);
  });

  it('a card that is not the caller’s is 404 for default and delete; a missing card_id is 400', async () => {
    const owner = await createUser(w.t);
    const other = await createUser(w.t);
    const card = await saveCard(w, owner);
    await saveCard(w, other);
    for (const res of [
      await api(w.t, other, 'PUT', '/payments/cards/default', { card_id: card }),
      await api(w.t, other, 'DELETE', `/payments/cards/${card}`),
      await api(w.t, owner, 'DELETE', '/payments/cards/pm_unknown'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Card not found' });
    }
    expect((await api(w.t, owner, 'PUT', '/payments/cards/default', {})).statusCode).toBe(400);
    expect((await api(w.t, owner, 'PUT', '/payments/cards/default', { card_id: card, extra: 1 })).statusCode).toBe(400);
    expect((await api(w.t, owner, 'GET', '/payments/cards')).json().items).toHaveLength(1);
  });

  it('detaches a card (204), refused with 409 while a ride holds money on it', async () => {
    const { passenger, rideId } = await acceptedRide(w.t);
    const card = await saveCard(w, passenger);
    const spare = await saveCard(w, passenger, 'pm_card_mastercard');
    expect((await api(w.t, passenger, 'PUT', '/payments/cards/default', { card_id: card })).statusCode).toBe(200);
    await w.t.get(PaymentsService).holdFare({ rideId, passengerId: passenger.id, fareMinor: 1000 });
    const refused = await api(w.t, passenger, 'DELETE', `/payments/cards/${card}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This card holds money for a ride in progress');
    expect(w.fake.objects.payment_method.get(card)!.customer).not.toBeNull();
    expect((await api(w.t, passenger, 'DELETE', `/payments/cards/${spare}`)).statusCode).toBe(204);
    await w.t.get(PaymentsService).releaseHold(rideId);
    const removed = await api(w.t, passenger, 'DELETE', `/payments/cards/${card}`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect(w.fake.posts().at(-1)).toMatchObject({ path: `/v1/payment_methods/${card}/detach`, idempotencyKey: `card:${card}:detach` });
    expect((await api(w.t, passenger, 'GET', '/payments/cards')).json()).toEqual({ items: [] });
  });

  it('passengers only: a driver is 403, no token is 401', async () => {
    const driver = await createUser(w.t, { role: 'driver' });
    expect((await api(w.t, driver, 'POST', '/payments/cards/setup')).statusCode).toBe(403);
    expect((await api(w.t, driver, 'GET', '/payments/cards')).statusCode).toBe(403);
    expect((await api(w.t, undefined, 'GET', '/payments/cards')).statusCode).toBe(401);
  });

  it('Stripe failing twice is 503 "Payment provider unavailable. Please try again" with Retry-After, and nothing is recorded', async () => {
    const passenger = await createUser(w.t);
    w.fake.script = [500, 503];
    const res = await api(w.t, passenger, 'POST', '/payments/cards/setup');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'Payment provider unavailable. Please try again' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await w.t.db.query(`SELECT 1 FROM payment_customers WHERE user_id = $1`, [passenger.id])).toEqual([]);
    // Once is retried, with the same key: the caller never notices.
    w.fake.script = [429];
    expect((await api(w.t, passenger, 'POST', '/payments/cards/setup')).statusCode).toBe(201);
    expect(customersOf(passenger.id).map((r) => r.status)).toEqual([500, 503, 429, 200]);
  });

  it('a Stripe that never answers is a 503 within the 10 s budget', async () => {
    const passenger = await createUser(w.t);
    w.fake.outage = 'hang';
    const started = Date.now();
    const res = await api(w.t, passenger, 'GET', '/payments/cards');
    expect(res.statusCode).toBe(200); // no customer yet: nothing to ask Stripe
    await w.t.db.query(`INSERT INTO payment_customers (user_id, stripe_customer_id) VALUES ($1, 'cus_hanging')`, [passenger.id]);
    const hung = await api(w.t, passenger, 'GET', '/payments/cards');
    const elapsed = Date.now() - started;
    expect(hung.statusCode).toBe(503);
    expect(hung.headers['retry-after']).toBeDefined();
    expect(elapsed).toBeGreaterThan(9_000);
    expect(elapsed).toBeLessThan(14_000);
    expect(w.fake.requests.filter((r) => r.path === '/v1/customers/cus_hanging/payment_methods')).toHaveLength(2);
  }, 30_000);
});
