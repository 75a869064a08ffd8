import { PaymentsService } from '../../src/modules/payments/payments.service';
import { WalletsService } from '../../src/modules/wallets/wallets.service';
import { createUser, TestUser } from '../support/factories';
import { acceptedRide } from '../rides/ride-helpers';
import { api, balanceOf, ledgerBalanced, PaymentsWorld, saveCard, startPaymentsApp } from './payments-helpers';

/**
 * The operations the ride commands call (issue 24, phase 2), at the service level against the
 * Stripe fake: hold, capture, release, fee from the hold, card tip, refunds; each records its
 * ledger entries once, however often or concurrently it is called.
 */
describe('PaymentsService: a ride’s card money', () => {
  let w: PaymentsWorld;
  let payments: PaymentsService;

  beforeAll(async () => {
    w = await startPaymentsApp({ PLATFORM_COMMISSION_PERCENT: '10' });
    payments = w.t.get(PaymentsService);
  });
  afterAll(() => w.close());
  beforeEach(() => {
    w.fake.script = [];
    w.fake.outage = undefined;
  });

  async function cardRide(testCard = 'pm_card_visa'): Promise<{ passenger: TestUser; driver: TestUser; rideId: string; card: string }> {
    const { passenger, driver, rideId } = await acceptedRide(w.t);
    const card = await saveCard(w, passenger, testCard);
    return { passenger, driver, rideId, card };
  }

  const postsTo = (path: RegExp) => w.fake.posts().filter((r) => path.test(r.path));
  const rows = (rideId: string) =>
    w.t.db.query(`SELECT purpose, attempt, status, amount_minor, captured_minor FROM card_payments WHERE ride_id = $1 ORDER BY purpose, attempt`, [rideId]);
  const ledger = (rideId: string) =>
    w.t.db.query(
      `SELECT e.kind, e.amount_minor, w.kind AS wallet_kind, w.user_id FROM wallet_ledger_entries e JOIN wallets w ON w.id = e.wallet_id
        WHERE e.ride_id = $1 AND e.kind <> 'ride_fare' ORDER BY e.id`,
      [rideId],
    );

  it('holds fare × (100 + CARD_HOLD_MARGIN_PERCENT) / 100, rounded up, on the default card, off-session, with manual capture', async () => {
    const { passenger, rideId, card } = await cardRide();
    const hold = await payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 1001 });
    expect(hold).toMatchObject({ amountMinor: 1202, cardId: card });
    const [request] = postsTo(/^\/v1\/payment_intents$/).filter((r) => r.body.metadata && (r.body.metadata as Record<string, string>).ride_id === rideId);
    expect(request!.idempotencyKey).toBe(`ride:${rideId}:hold`);
    expect(request!.body).toEqual({
      amount: '1202',
      currency: 'usd',
      customer: expect.stringMatching(/^cus_/),
      payment_method: card,
      capture_method: 'manual',
      confirm: 'true',
      off_session: 'true',
      metadata: { ride_id: rideId },
    });
    expect(w.fake.objects.payment_intent.get(hold.paymentIntentId)).toMatchObject({ status: 'requires_capture', amount_capturable: 1202 });
    expect(await rows(rideId)).toEqual([{ purpose: 'fare', attempt: 1, status: 'held', amount_minor: 1202, captured_minor: 0 }]);
  });

  it('refuses a passenger without a saved card: 400 "Add a card to pay by card"', async () => {
    const { passenger, rideId } = await acceptedRide(w.t);
    await expect(payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 1000 })).rejects.toMatchObject({
      code: 'CARD_REQUIRED',
      message: 'Add a card to pay by card',
    });
    await expect(payments.requireSavedCard(passenger.id)).rejects.toMatchObject({ code: 'CARD_REQUIRED' });
  });

  it('a decline is 402 "Your card was declined", recorded; the next try with another card takes the key ride:{id}:hold:2', async () => {
    const { passenger, rideId } = await cardRide('pm_card_chargeDeclinedInsufficientFunds');
    await expect(payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 1000 })).rejects.toMatchObject({
      code: 'CARD_DECLINED',
      message: 'Your card was declined',
    });
    expect(await rows(rideId)).toEqual([{ purpose: 'fare', attempt: 1, status: 'declined', amount_minor: 1200, captured_minor: 0 }]);
    const visa = await saveCard(w, passenger, 'pm_card_visa');
    expect((await api(w.t, passenger, 'PUT', '/payments/cards/default', { card_id: visa })).statusCode).toBe(200);
    const hold = await payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 1000 });
    expect(postsTo(/^\/v1\/payment_intents$/).at(-1)!.idempotencyKey).toBe(`ride:${rideId}:hold:2`);
    expect(hold.cardId).toBe(visa);
    expect((await rows(rideId)).map((r: { status: string }) => r.status)).toEqual(['declined', 'held']);
  });

  it('concurrent holds of one ride: one wins, the rest are 409, and Stripe holds money once', async () => {
    const { passenger, rideId } = await cardRide();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 1500 })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected'))
      expect(r.reason).toMatchObject({ code: 'PAYMENT_ALREADY_HELD' });
    const live = [...w.fake.objects.payment_intent.values()].filter((pi) => pi.metadata?.ride_id === rideId && pi.status === 'requires_capture');
    expect(live).toHaveLength(1);
    // The database itself refuses a second live hold, whoever writes it.
    await expect(
      w.t.db.query(
        `INSERT INTO card_payments (id, ride_id, purpose, attempt, status, card_id, amount_minor, currency) VALUES (gen_random_uuid(), $1, 'fare', 9, 'held', 'pm_x', 100, 'USD')`,
        [rideId],
      ),
    ).rejects.toThrow(/card_payments_one_live_uq/);
  });

  it('captures the fare once: the driver gets it less the commission, however many callers race', async () => {
    const { passenger, driver, rideId } = await cardRide();
    const hold = await payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 2000 });
    const before = await balanceOf(w.t, driver.id);
    const outcomes = await Promise.all(
      Array.from({ length: 3 }, () => payments.captureFare({ rideId, driverId: driver.id, fareMinor: 2000, commissionMinor: 200 })),
    );
    expect(outcomes).toEqual(Array(3).fill({ status: 'captured', capturedMinor: 2000 }));
    const captures = postsTo(new RegExp(`^/v1/payment_intents/${hold.paymentIntentId}/capture$`));
    expect(captures.map((r) => [r.idempotencyKey, r.body])).toEqual([[`ride:${rideId}:capture`, { amount_to_capture: '2000' }]]);
    expect(w.fake.objects.payment_intent.get(hold.paymentIntentId)).toMatchObject({ status: 'succeeded', amount_received: 2000 });
    expect(await balanceOf(w.t, driver.id)).toBe(before + 1800);
    expect(await ledger(rideId)).toEqual([
      { kind: 'card_fare', amount_minor: -2000, wallet_kind: 'external', user_id: null },
      { kind: 'ride_earning', amount_minor: 1800, wallet_kind: 'user', user_id: driver.id },
      { kind: 'ride_commission', amount_minor: 200, wallet_kind: 'platform', user_id: null },
    ]);
    expect(await payments.rideCardPayment(rideId)).toEqual({ status: 'captured', capturedMinor: 2000, tipMinor: 0, refundedMinor: 0 });
  });

  it('a capture Stripe refuses (the hold expired) leaves the payment failed and books nothing', async () => {
    const { passenger, driver, rideId } = await cardRide();
    const hold = await payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 1000 });
    w.fake.objects.payment_intent.get(hold.paymentIntentId)!.status = 'canceled';
    await expect(payments.captureFare({ rideId, driverId: driver.id, fareMinor: 1000, commissionMinor: 0 })).resolves.toEqual({
      status: 'failed',
      capturedMinor: 0,
    });
    expect(await ledger(rideId)).toEqual([]);
    expect((await payments.rideCardPayment(rideId)).status).toBe('failed');
  });

  it('an outage during a capture is a 503 with Retry-After and records nothing; the retry sends the same key and books once', async () => {
    const { passenger, driver, rideId } = await cardRide();
    await payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 1000 });
    w.fake.script = [503, 429];
    await expect(payments.captureFare({ rideId, driverId: driver.id, fareMinor: 1000, commissionMinor: 0 })).rejects.toMatchObject({
      code: 'PAYMENT_PROVIDER_UNAVAILABLE',
      message: 'Payment provider unavailable. Please try again',
      retryAfterSeconds: expect.any(Number),
    });
    expect((await payments.rideCardPayment(rideId)).status).toBe('held');
    expect(await ledger(rideId)).toEqual([]);
    w.fake.script = [500];
    await expect(payments.captureFare({ rideId, driverId: driver.id, fareMinor: 1000, commissionMinor: 0 })).resolves.toMatchObject({ status: 'captured' });
    const keys = postsTo(/\/capture$/).filter((r) => r.idempotencyKey === `ride:${rideId}:capture`);
    expect(keys.map((r) => r.status)).toEqual([503, 429, 500, 200]);
    expect((await ledger(rideId)).filter((e: { kind: string }) => e.kind === 'card_fare')).toHaveLength(1);
  });

  it('releases the hold once (ride:{id}:release) and books nothing', async () => {
    const { passenger, rideId } = await cardRide();
    const hold = await payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 1000 });
    expect(await payments.releaseHold(rideId)).toBe(true);
    expect(await payments.releaseHold(rideId)).toBe(false);
    expect(
      postsTo(/\/cancel$/)
        .filter((r) => r.path.includes(hold.paymentIntentId))
        .map((r) => r.idempotencyKey),
    ).toEqual([`ride:${rideId}:release`]);
    expect(w.fake.objects.payment_intent.get(hold.paymentIntentId)!.status).toBe('canceled');
    expect((await payments.rideCardPayment(rideId)).status).toBe('released');
    expect(await ledger(rideId)).toEqual([]);
  });

  it('takes a fee from the hold (ride:{id}:fee), the rest released; the driver gets it with no commission', async () => {
    const { passenger, driver, rideId } = await cardRide();
    const hold = await payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 1000 });
    const before = await balanceOf(w.t, driver.id);
    await expect(payments.chargeFeeFromHold({ rideId, driverId: driver.id, feeMinor: 300 })).resolves.toEqual({ status: 'captured', capturedMinor: 300 });
    expect(postsTo(/\/capture$/).at(-1)).toMatchObject({ idempotencyKey: `ride:${rideId}:fee`, body: { amount_to_capture: '300' } });
    expect(w.fake.objects.payment_intent.get(hold.paymentIntentId)).toMatchObject({ status: 'succeeded', amount_received: 300, amount_capturable: 0 });
    expect(await balanceOf(w.t, driver.id)).toBe(before + 300);
    expect(await ledger(rideId)).toEqual([
      { kind: 'cancellation_fee', amount_minor: -300, wallet_kind: 'external', user_id: null },
      { kind: 'fee_earning', amount_minor: 300, wallet_kind: 'user', user_id: driver.id },
    ]);
  });

  it('charges a tip to the card the ride was held on (its own PaymentIntent), once; a declined tip is 402 and books nothing', async () => {
    const { passenger, driver, rideId, card } = await cardRide();
    await payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 1000 });
    await payments.captureFare({ rideId, driverId: driver.id, fareMinor: 1000, commissionMinor: 100 });
    await saveCard(w, passenger, 'pm_card_mastercard'); // the newest card is now the default: the tip still goes on the ride's card
    const { paymentId } = await payments.chargeTip({ rideId, passengerId: passenger.id, driverId: driver.id, amountMinor: 250 });
    expect(paymentId).toBeDefined();
    expect(postsTo(/^\/v1\/payment_intents$/).at(-1)).toMatchObject({
      idempotencyKey: `ride:${rideId}:tip`,
      body: { amount: '250', payment_method: card, confirm: 'true', off_session: 'true', capture_method: 'automatic', metadata: { ride_id: rideId } },
    });
    await expect(payments.chargeTip({ rideId, passengerId: passenger.id, driverId: driver.id, amountMinor: 250 })).rejects.toMatchObject({
      code: 'TIP_ALREADY_CHARGED',
    });
    expect((await ledger(rideId)).filter((e: { kind: string }) => e.kind.includes('tip'))).toEqual([
      { kind: 'card_tip', amount_minor: -250, wallet_kind: 'external', user_id: null },
      { kind: 'tip_earning', amount_minor: 250, wallet_kind: 'user', user_id: driver.id },
    ]);

    const other = await cardRide();
    await payments.holdFare({ rideId: other.rideId, passengerId: other.passenger.id, fareMinor: 1000 });
    (w.fake.objects.payment_method.get(other.card) as { _decline?: string })._decline = 'generic_decline';
    await expect(
      payments.chargeTip({ rideId: other.rideId, passengerId: other.passenger.id, driverId: other.driver.id, amountMinor: 500 }),
    ).rejects.toMatchObject({
      code: 'CARD_DECLINED',
    });
    expect((await ledger(other.rideId)).filter((e: { kind: string }) => e.kind.includes('tip'))).toEqual([]);
  });

  it('refunds a card ride through Stripe, fare first then tip, never above what was paid, once per refund id', async () => {
    const { passenger, driver, rideId } = await cardRide();
    const hold = await payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 1000 });
    await payments.captureFare({ rideId, driverId: driver.id, fareMinor: 1000, commissionMinor: 100 });
    const tip = await payments.chargeTip({ rideId, passengerId: passenger.id, driverId: driver.id, amountMinor: 300 });
    const driverBalance = await balanceOf(w.t, driver.id);
    const refundId = '6f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5';
    const refund = await payments.refund({ refundId, rideId, passengerId: passenger.id, amountMinor: 1100, reason: 'detour' });
    expect(refund).toEqual({ id: refundId, ride_id: rideId, amount: 11, currency: 'USD', created_at: expect.any(String) });
    const tipIntent = (await w.t.db.query(`SELECT stripe_payment_intent_id FROM card_payments WHERE id = $1`, [tip.paymentId]))[0].stripe_payment_intent_id;
    expect(
      postsTo(/^\/v1\/refunds$/)
        .slice(-2)
        .map((r) => [r.idempotencyKey, r.body]),
    ).toEqual([
      [`refund:${refundId}`, { payment_intent: hold.paymentIntentId, amount: '1000', metadata: { ride_id: rideId } }],
      [`refund:${refundId}:tip`, { payment_intent: tipIntent, amount: '100', metadata: { ride_id: rideId } }],
    ]);
    // A retry of the same refund answers it again and refunds nothing more.
    const posts = w.fake.posts().length;
    await expect(payments.refund({ refundId, rideId, passengerId: passenger.id, amountMinor: 1100, reason: 'detour' })).resolves.toEqual(refund);
    expect(w.fake.posts().length).toBe(posts);
    await expect(
      payments.refund({ refundId: '7f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5', rideId, passengerId: passenger.id, amountMinor: 201, reason: null }),
    ).rejects.toMatchObject({
      code: 'REFUND_EXCEEDS_PAID',
    });
    expect(await balanceOf(w.t, driver.id)).toBe(driverBalance);
    expect(await payments.rideCardPayment(rideId)).toEqual({ status: 'captured', capturedMinor: 1000, tipMinor: 300, refundedMinor: 1100 });
    const platform = await w.t.db.query(
      `SELECT e.amount_minor FROM wallet_ledger_entries e JOIN wallets w ON w.id = e.wallet_id WHERE e.ride_id = $1 AND e.kind = 'refund' AND w.kind = 'platform'`,
      [rideId],
    );
    expect(platform).toEqual([{ amount_minor: -1100 }]);
  });

  it('concurrent refunds of one ride: the same refund id refunds once, and two refunds never exceed what was paid', async () => {
    const { passenger, driver, rideId } = await cardRide();
    await payments.holdFare({ rideId, passengerId: passenger.id, fareMinor: 1000 });
    await payments.captureFare({ rideId, driverId: driver.id, fareMinor: 1000, commissionMinor: 0 });
    const same = 'ba1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5';
    const twice = await Promise.all([1, 2].map(() => payments.refund({ refundId: same, rideId, passengerId: passenger.id, amountMinor: 400, reason: null })));
    expect(twice[0]).toEqual(twice[1]);
    const others = await Promise.allSettled(
      ['ca1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5', 'da1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5'].map((refundId) =>
        payments.refund({ refundId, rideId, passengerId: passenger.id, amountMinor: 500, reason: null }),
      ),
    );
    expect(others.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(others.find((r): r is PromiseRejectedResult => r.status === 'rejected')!.reason).toMatchObject({ code: 'REFUND_EXCEEDS_PAID' });
    const stripeRefunds = [...w.fake.objects.refund.values()].filter((r) => r.metadata?.ride_id === rideId);
    expect(stripeRefunds.map((r) => r.amount).sort()).toEqual([400, 500]);
    expect((await payments.rideCardPayment(rideId)).refundedMinor).toBe(900);
  });

  it('refunds a wallet ride back to the wallet, and refuses a ride with nothing paid', async () => {
    const passenger = await createUser(w.t, { walletBalanceMinor: 5000 });
    const { driver, rideId } = await acceptedRide(w.t, { passenger, payment: 'wallet', amount: 20 });
    for (const status of ['driver_arrived', 'started', 'completed']) {
      expect((await api(w.t, driver, 'PUT', `/rides/${rideId}/status`, { status })).statusCode).toBe(200);
    }
    expect(await w.t.get(WalletsService).paidFromWalletForRide(rideId)).toBe(2000);
    const before = await balanceOf(w.t, passenger.id);
    await payments.refund({ refundId: '8a1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5', rideId, passengerId: passenger.id, amountMinor: 1500, reason: 'late' });
    expect(await balanceOf(w.t, passenger.id)).toBe(before + 1500);
    await expect(
      payments.refund({ refundId: '9a1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5', rideId, passengerId: passenger.id, amountMinor: 501, reason: null }),
    ).rejects.toMatchObject({
      code: 'REFUND_EXCEEDS_PAID',
    });
    const cash = await acceptedRide(w.t);
    await expect(
      payments.refund({
        refundId: 'aa1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5',
        rideId: cash.rideId,
        passengerId: cash.passenger.id,
        amountMinor: 100,
        reason: null,
      }),
    ).rejects.toMatchObject({
      code: 'NOTHING_TO_REFUND',
    });
  });

  it('leaves the ledger balanced', async () => {
    expect(await ledgerBalanced(w.t)).toEqual({ wallets: [], transfers: [] });
    const report = await w.t.get(WalletsService).checkLedger();
    expect([report.wallets, report.transfers]).toEqual([[], []]);
  });
});
