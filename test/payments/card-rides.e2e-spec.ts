import { executeCommand } from '../../src/cli/commands';
import { createOperator, createUser, TestUser } from '../support/factories';
import { accept, bookingBody, bookRide, cancel, onlineDriver, placeBid, setStatus } from '../rides/ride-helpers';
import { api, balanceOf, PaymentsWorld, saveCard, startPaymentsApp } from './payments-helpers';

/**
 * Card rides through the API against the Stripe fake (CONTRACT §12): booking with `card`, the hold
 * at accept (a decline leaves the ride bookable), the capture at completion, the release on a free
 * cancel, card tips; the ride's payment fields follow, and the ledger balances.
 */
describe('card rides', () => {
  let w: PaymentsWorld;

  beforeAll(async () => {
    w = await startPaymentsApp({ PLATFORM_COMMISSION_PERCENT: '10', CARD_HOLD_MARGIN_PERCENT: '20' });
  });
  afterAll(() => w.close());
  beforeEach(() => {
    w.fake.script = [];
    w.fake.outage = undefined;
  });

  const intentsOf = (rideId: string) =>
    [...w.fake.objects.payment_intent.values()].filter((pi) => pi.metadata?.ride_id === rideId && pi.capture_method === 'manual');
  const liveHolds = (rideId: string) => intentsOf(rideId).filter((pi) => pi.status === 'requires_capture');
  const rideRow = async (rideId: string) =>
    (await w.t.db.query(`SELECT status, payment_status, cancellation_fee_minor, refunded_minor FROM rides WHERE id = $1`, [rideId]))[0];

  async function cardPassenger(testCard = 'pm_card_visa'): Promise<TestUser> {
    const passenger = await createUser(w.t);
    await saveCard(w, passenger, testCard);
    return passenger;
  }

  /** A card ride booked and bid on (amount 10.00), not yet accepted. */
  async function bidOnCardRide(passenger?: TestUser) {
    const p = passenger ?? (await cardPassenger());
    const driver = await onlineDriver(w.t);
    const ride = await bookRide(w.t, p, { payment_method: 'card' });
    const bid = await placeBid(w.t, driver, ride.id, 10);
    return { passenger: p, driver, rideId: ride.id, bidId: bid.id };
  }

  async function acceptedCardRide(passenger?: TestUser) {
    const r = await bidOnCardRide(passenger);
    const res = await accept(w.t, r.passenger, r.rideId, r.bidId);
    expect(res.statusCode).toBe(200);
    return r;
  }

  async function expectLedgerBalanced(): Promise<void> {
    expect(await executeCommand(w.t.app, ['ledger:check'])).toMatch(/^Ledger balanced: /);
  }

  it('booking with card and no saved card: 400 "Add a card to pay by card"; a card ride starts with payment_status pending', async () => {
    const bare = await createUser(w.t);
    const res = await api(w.t, bare, 'POST', '/rides/book', bookingBody({ payment_method: 'card' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, message: 'Add a card to pay by card' });
    const ride = await bookRide(w.t, await cardPassenger(), { payment_method: 'card' });
    expect(ride).toMatchObject({ payment_method: 'card', payment_status: 'pending', cancellation_fee: null, refunded_amount: 0 });
    const cash = await bookRide(w.t, await createUser(w.t));
    expect(cash).toMatchObject({ payment_method: 'cash', payment_status: null, cancellation_fee: null, refunded_amount: 0 });
  });

  it('accept holds fare + 20 % on the default card (ride:{id}:hold) and the ride shows payment_status held', async () => {
    const { passenger, rideId, bidId } = await bidOnCardRide();
    const res = await accept(w.t, passenger, rideId, bidId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'accepted', fare: 10, payment_status: 'held' });
    const [hold] = liveHolds(rideId);
    expect(hold).toMatchObject({ amount: 1200, currency: 'usd', capture_method: 'manual' });
    expect(w.fake.posts().find((r) => r.path === '/v1/payment_intents' && r.idempotencyKey === `ride:${rideId}:hold`)).toBeDefined();
  });

  it('a declined card: 402 "Your card was declined", the ride stays requested, the bid pending; another card then holds (ride:{id}:hold:2)', async () => {
    const passenger = await cardPassenger('pm_card_chargeDeclinedInsufficientFunds');
    const { rideId, bidId } = await bidOnCardRide(passenger);
    const res = await accept(w.t, passenger, rideId, bidId);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ statusCode: 402, error: 'Payment Required', message: 'Your card was declined' });
    expect(await rideRow(rideId)).toMatchObject({ status: 'requested', payment_status: 'pending' });
    const [bid] = await w.t.db.query(`SELECT status FROM bids WHERE id = $1`, [bidId]);
    expect(bid.status).toBe('pending');
    const visa = await saveCard(w, passenger, 'pm_card_visa');
    expect((await api(w.t, passenger, 'PUT', '/payments/cards/default', { card_id: visa })).statusCode).toBe(200);
    expect((await accept(w.t, passenger, rideId, bidId)).statusCode).toBe(200);
    expect(w.fake.posts().some((r) => r.idempotencyKey === `ride:${rideId}:hold:2`)).toBe(true);
    expect(liveHolds(rideId)).toHaveLength(1);
  });

  it('concurrent accepts of a card ride: one 200, the rest 409, and at most one hold is ever live', async () => {
    const { passenger, rideId, bidId } = await bidOnCardRide();
    const second = await placeBid(w.t, await onlineDriver(w.t), rideId, 11);
    const answers = await Promise.all([bidId, second.id, bidId, second.id, bidId, second.id].map((id) => accept(w.t, passenger, rideId, id)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    expect(liveHolds(rideId)).toHaveLength(1);
    const winner = answers.find((r) => r.statusCode === 200)!.json();
    expect(liveHolds(rideId)[0]!.amount).toBe(Math.ceil(winner.fare * 100 * 1.2));
    expect(await rideRow(rideId)).toMatchObject({ status: 'accepted', payment_status: 'held' });
    // Operators find it by its payment status.
    const support = await createOperator(w.t, 'support');
    const listed = await w.t.request({
      method: 'GET',
      url: `/api/v1/admin/rides?payment_status=held&passenger_id=${passenger.id}`,
      token: support.accessToken,
    });
    expect(listed.json().items.map((r: { id: string }) => r.id)).toEqual([rideId]);
  });

  it('an accept that loses under the lock cancels its own hold (the driver was suspended after bidding)', async () => {
    const { passenger, driver, rideId, bidId } = await bidOnCardRide();
    // Judged only under the ride's lock, after the hold: the accept is refused there.
    await w.t.db.query(`UPDATE drivers SET status = 'suspended' WHERE user_id = $1`, [driver.id]);
    const res = await accept(w.t, passenger, rideId, bidId);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Driver is no longer available');
    expect(intentsOf(rideId).map((pi) => pi.status)).toEqual(['canceled']);
    expect(w.fake.posts().some((r) => r.idempotencyKey === `ride:${rideId}:release`)).toBe(true);
    expect(await rideRow(rideId)).toMatchObject({ status: 'requested', payment_status: 'pending' });
  });

  it('completion captures the fare (ride:{id}:capture): payment_status captured, the driver gets it less 10 %', async () => {
    const { passenger, driver, rideId } = await acceptedCardRide();
    for (const status of ['driver_arrived', 'started']) expect((await setStatus(w.t, driver, rideId, status)).statusCode).toBe(200);
    const before = await balanceOf(w.t, driver.id);
    const res = await setStatus(w.t, driver, rideId, 'completed');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'completed', payment_status: 'captured' });
    expect(intentsOf(rideId)[0]).toMatchObject({ status: 'succeeded', amount_received: 1000 });
    expect(await balanceOf(w.t, driver.id)).toBe(before + 900);
    expect(w.fake.posts().some((r) => r.idempotencyKey === `ride:${rideId}:capture`)).toBe(true);
    // A card tip: its own PaymentIntent on the same card, paid to the driver with no commission.
    const tip = await api(w.t, passenger, 'POST', `/rides/${rideId}/tip`, { amount: 2 });
    expect(tip.statusCode).toBe(201);
    expect(await balanceOf(w.t, driver.id)).toBe(before + 1100);
    await expectLedgerBalanced();
  });

  it('a capture Stripe refuses still completes the ride, with payment_status failed and nothing booked', async () => {
    const { driver, rideId } = await acceptedCardRide();
    for (const status of ['driver_arrived', 'started']) await setStatus(w.t, driver, rideId, status);
    // The hold lapsed at Stripe (uncaptured for 7 days): the capture is refused.
    const [hold] = liveHolds(rideId);
    hold!.status = 'canceled';
    const before = await balanceOf(w.t, driver.id);
    const res = await setStatus(w.t, driver, rideId, 'completed');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'completed', payment_status: 'failed' });
    expect(await balanceOf(w.t, driver.id)).toBe(before);
    await expectLedgerBalanced();
  });

  it('an outage at completion is a 503 with Retry-After and the ride still started; the retry completes it once', async () => {
    const { driver, rideId } = await acceptedCardRide();
    for (const status of ['driver_arrived', 'started']) await setStatus(w.t, driver, rideId, status);
    w.fake.outage = 503;
    const res = await setStatus(w.t, driver, rideId, 'completed');
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe('Payment provider unavailable. Please try again');
    expect(res.headers['retry-after']).toBeDefined();
    expect(await rideRow(rideId)).toMatchObject({ status: 'started', payment_status: 'held' });
    w.fake.outage = undefined;
    expect((await setStatus(w.t, driver, rideId, 'completed')).json()).toMatchObject({ status: 'completed', payment_status: 'captured' });
    await expectLedgerBalanced();
  });

  it("a free cancel (the passenger's within CANCELLATION_FREE_SECONDS, or the driver's) releases the hold", async () => {
    const a = await acceptedCardRide();
    const res = await cancel(w.t, a.passenger, a.rideId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', payment_status: 'released', cancellation_fee: null });
    expect(intentsOf(a.rideId)[0]!.status).toBe('canceled');
    const b = await acceptedCardRide();
    await w.t.db.query(`UPDATE rides SET accepted_at = now() - interval '1 hour' WHERE id = $1`, [b.rideId]);
    expect((await cancel(w.t, b.driver, b.rideId)).json()).toMatchObject({ cancelled_by: 'driver', payment_status: 'released', cancellation_fee: null });
  });

  it('concurrent card tips: one 201, the rest 409, one tip charged; concurrent late cancels take one fee', async () => {
    const { passenger, driver, rideId } = await acceptedCardRide();
    for (const status of ['driver_arrived', 'started', 'completed']) await setStatus(w.t, driver, rideId, status);
    const tips = await Promise.all([1, 2, 3, 4].map(() => api(w.t, passenger, 'POST', `/rides/${rideId}/tip`, { amount: 2 })));
    expect(tips.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const charged = [...w.fake.objects.payment_intent.values()].filter(
      (pi) => pi.metadata?.ride_id === rideId && pi.capture_method !== 'manual' && pi.status === 'succeeded',
    );
    expect(charged).toHaveLength(1);
    const late = await acceptedCardRide();
    await w.t.db.query(`UPDATE rides SET accepted_at = now() - interval '1 hour' WHERE id = $1`, [late.rideId]);
    const cancels = await Promise.all([1, 2, 3].map(() => cancel(w.t, late.passenger, late.rideId)));
    expect(cancels.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(intentsOf(late.rideId)[0]).toMatchObject({ status: 'succeeded', amount_received: 300 });
    await expectLedgerBalanced();
  });

  it('a card tip that is declined is 402 and records no tip', async () => {
    const passenger = await cardPassenger();
    const { driver, rideId } = await acceptedCardRide(passenger);
    for (const status of ['driver_arrived', 'started', 'completed']) await setStatus(w.t, driver, rideId, status);
    // The card the ride was held on now declines (the fake declines by the card's test number).
    const [row] = await w.t.db.query(`SELECT card_id FROM card_payments WHERE ride_id = $1 AND purpose = 'fare'`, [rideId]);
    const card = w.fake.objects.payment_method.get(row.card_id)!;
    card._decline = 'insufficient_funds';
    const res = await api(w.t, passenger, 'POST', `/rides/${rideId}/tip`, { amount: 2 });
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toBe('Your card was declined');
    const [ride] = await w.t.db.query(`SELECT tip_minor FROM rides WHERE id = $1`, [rideId]);
    expect(ride.tip_minor).toBeNull();
  });
});
