import type { Page } from 'playwright-core';
import { freshEmail, signUp } from '../auth/auth-helpers';
import { accept, acceptedRide, bookRide, onlineDriver, placeBid, setStatus } from '../rides/ride-helpers';
import { createOperator, createUser, type TestOperator } from '../support/factories';
import type { TestApp } from '../support/test-app';
import { openConsole, type ConsoleSession } from './console-session';

/**
 * The operator console (CONTRACT §13) as an operator uses it, in headless Chromium: every step goes
 * through the console's own forms and links, never the API behind it; the database is read only to
 * check what a step did. Drivers, their documents and the live map: console-drivers.e2e-spec.ts.
 */
describe('the operator console in headless Chromium', () => {
  let session: ConsoleSession;
  let t: TestApp;
  let page: Page;
  let admin: TestOperator;

  beforeAll(async () => {
    session = await openConsole();
    ({ t, page } = session);
    admin = await createOperator(t, 'admin');
  }, 120_000);
  afterAll(() => session?.close());

  const status = (form: string) => page.locator(`form${form} .status`);
  const nav = (label: string) => session.nav(label);
  const signIn = (email: string) => session.signIn(email);

  it('refuses a passenger who signs in: the console is for operators only', async () => {
    const email = freshEmail();
    await signUp(t, { email });
    await signIn(email);
    await page.locator('.sign-in .status.error').waitFor();
    await expect(page.locator('.sign-in .status').textContent()).resolves.toBe('This account is not an operator: the console is for operators only.');
    expect(await page.locator('header.top').count()).toBe(0);
  }, 120_000);

  it("a wrong code is refused with the contract's message", async () => {
    await page.goto(`${t.baseUrl}/console`);
    await page.locator('#send-code').waitFor();
    await page.locator('#send-code input[name=email]').fill(admin.email);
    await page.locator('#send-code button[type=submit]').click();
    await page.locator('#verify-code input[name=otp]').fill('000000');
    await page.locator('#verify-code button[type=submit]').click();
    await page.locator('.sign-in .status.error').waitFor();
    expect(await page.locator('.sign-in .status').textContent()).toBe('Invalid OTP [400]');
  }, 120_000);

  it('an admin signs in by e-mail code, sees the operators, adds one with a reason and finds it in the audit trail', async () => {
    await signIn(admin.email);
    await expect(page.locator('header.top .who').textContent()).resolves.toBe(`${admin.email} · admin`);

    await nav('Operators');
    const list = page.locator('#operators-list table');
    await list.locator('tr', { hasText: admin.email }).waitFor();

    const hire = freshEmail();
    const add = page.locator('form[data-action=add-operator]');
    await add.locator('input[name=email]').fill(hire);
    await add.locator('select[name=operator_role]').selectOption('support');
    await add.locator('input[name=reason]').fill('New support hire');
    await add.locator('button[type=submit]').click();
    await expect(status('[data-action=add-operator]').filter({ hasText: 'done' }).textContent()).resolves.toBe('Add operator: done.');
    await list.locator('tr', { hasText: hire }).waitFor();
    const [added] = await t.db.query(`SELECT id, role, operator_role FROM users WHERE email = $1`, [hire]);
    expect(added).toMatchObject({ role: 'operator', operator_role: 'support' });

    // A reason under 3 characters is refused by the form itself, before any request.
    await add.locator('input[name=email]').fill(freshEmail());
    await add.locator('input[name=reason]').fill('no');
    expect(await add.locator('input[name=reason]').evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid)).toBe(false);

    await nav('Audit trail');
    const entry = page.locator('#audit-list tr', { hasText: 'New support hire' });
    await entry.waitFor();
    expect(await entry.locator('td').allTextContents()).toEqual([
      expect.stringMatching(/ UTC$/),
      `operator ${admin.id}`,
      'operators.add',
      `operator ${added.id}`,
      'New support hire',
    ]);
    await page.locator('#audit-filter input[name=target_id]').fill(String(added.id));
    await page.locator('#audit-filter button[type=submit]').click();
    await page.locator('#audit-list .pager', { hasText: '(1 entries)' }).waitFor();
  }, 120_000);

  it('a role without the action reads the refusal in the form; nothing is written', async () => {
    const support = await createOperator(t, 'support');
    await signIn(support.email);
    await expect(page.locator('header.top .who').textContent()).resolves.toBe(`${support.email} · support`);
    await nav('Operators');
    const add = page.locator('form[data-action=add-operator]');
    const hire = freshEmail();
    await add.locator('input[name=email]').fill(hire);
    await add.locator('input[name=reason]').fill('Hiring myself a colleague');
    await add.locator('button[type=submit]').click();
    await add.locator('.status.error').waitFor();
    expect(await add.locator('.status').textContent()).toBe('Not allowed for your role [403]');
    expect(await t.db.query(`SELECT 1 FROM users WHERE email = $1`, [hire])).toEqual([]);
  }, 120_000);

  it('finds a user by e-mail, blocks and unblocks them and credits their wallet, each with a reason', async () => {
    const passenger = await createUser(t);
    await signIn(admin.email);
    await nav('Users');
    await page.locator('#user-search input[name=query]').fill(passenger.email.toUpperCase());
    await page.locator('#user-search button[type=submit]').click();
    const row = page.locator('#users-list tr', { hasText: passenger.email });
    await row.locator('button', { hasText: 'Open' }).click();
    const card = page.locator('#user-detail');
    await card.locator('h2', { hasText: `User ${passenger.id}:` }).waitFor();
    expect(await card.locator('dl.fields').innerText()).toMatch(/State\s+active[\s\S]*Wallet\s+0\.00 USD/);

    const block = card.locator('form[data-action=block-user]');
    await block.locator('input[name=reason]').fill('Reported for abuse');
    await block.locator('button[type=submit]').click();
    // After the write the card reloads from the API: it now offers Unblock.
    const unblock = card.locator('form[data-action=unblock-user]');
    await unblock.waitFor();
    expect(await card.locator('dl.fields').innerText()).toMatch(/State\s+blocked/);
    expect((await t.db.query(`SELECT is_blocked FROM users WHERE id = $1`, [passenger.id]))[0].is_blocked).toBe(true);

    await unblock.locator('input[name=reason]').fill('Appeal accepted');
    await unblock.locator('button[type=submit]').click();
    await card.locator('form[data-action=block-user]').waitFor();
    expect((await t.db.query(`SELECT is_blocked FROM users WHERE id = $1`, [passenger.id]))[0].is_blocked).toBe(false);

    await card.locator('summary', { hasText: 'Adjust the wallet' }).click();
    const adjust = card.locator('form[data-action=adjust-wallet]');
    await adjust.locator('input[name=amount]').fill('-1');
    await adjust.locator('input[name=reason]').fill('Goodwill credit');
    await adjust.locator('button[type=submit]').click();
    await adjust.locator('.status.error').waitFor();
    expect(await adjust.locator('.status').textContent()).toMatch(/\[409\]$/);
    await adjust.locator('input[name=amount]').fill('7.5');
    await adjust.locator('button[type=submit]').click();
    await card.locator('dl.fields dd', { hasText: '7.50 USD' }).waitFor();
    const audit = await t.db.query(`SELECT action, reason, actor_id FROM audit_log WHERE target_id = $1 ORDER BY id`, [String(passenger.id)]);
    expect(audit).toEqual([
      { action: expect.stringMatching(/block/), reason: 'Reported for abuse', actor_id: admin.id },
      { action: expect.stringMatching(/unblock/), reason: 'Appeal accepted', actor_id: admin.id },
      { action: expect.stringMatching(/adjust/), reason: 'Goodwill credit', actor_id: admin.id },
    ]);
  }, 120_000);

  it('finds a ride among the newest and by its id, and cancels it with a reason that shows in its history', async () => {
    const { rideId, passenger } = await acceptedRide(t);
    await nav('Rides');
    await page.locator('#ride-lookup input[name=ride_id]').fill('ABC123');
    await page.locator('#ride-lookup button[type=submit]').click();
    await page.locator('#ride-detail .status.error', { hasText: 'A ride id is a UUID' }).waitFor();
    await page.locator('#ride-lookup input[name=ride_id]').fill('6f1c1b7e-1d7a-4c57-9a55-3f8f1e2b9c10');
    await page.locator('#ride-lookup button[type=submit]').click();
    await page.locator('#ride-detail .status.error', { hasText: 'Ride not found [404]' }).waitFor();

    await page.locator('#rides-filter input[name=user_id]').fill(String(passenger.id));
    await page.locator('#rides-filter button[type=submit]').click();
    const row = page.locator('#rides-list tbody tr');
    await row.filter({ hasText: 'accepted' }).waitFor();
    expect(await row.count()).toBe(1);
    await row.locator('button', { hasText: 'Open' }).click();
    const detail = page.locator('#ride-detail');
    await detail.locator('dl.fields dd', { hasText: rideId }).waitFor();

    const cancel = detail.locator('form[data-action=cancel-ride]');
    await cancel.locator('input[name=reason]').fill('Passenger called support');
    await cancel.locator('button[type=submit]').click();
    const history = detail.locator('table.events tbody tr', { hasText: 'cancelled' });
    await history.waitFor();
    expect((await history.locator('td').allTextContents()).slice(1)).toEqual(['cancelled', `operator ${admin.id}`, 'Passenger called support']);
    expect(await detail.locator('form[data-action=cancel-ride]').count()).toBe(0);
    expect((await t.db.query(`SELECT status, cancelled_by FROM rides WHERE id = $1`, [rideId]))[0]).toEqual({
      status: 'cancelled',
      cancelled_by: 'operator',
    });
  }, 120_000);

  it('refunds part of a wallet ride with a reason; more than was paid is refused with the contract message', async () => {
    const passenger = await createUser(t, { walletBalanceMinor: 5000 });
    const driver = await onlineDriver(t);
    const ride = await bookRide(t, passenger, { payment_method: 'wallet' });
    const bid = await placeBid(t, driver, ride.id, 10);
    expect((await accept(t, passenger, ride.id, bid.id)).statusCode).toBe(200);
    for (const status of ['driver_arrived', 'started', 'completed']) expect((await setStatus(t, driver, ride.id, status)).statusCode).toBe(200);

    await signIn(admin.email);
    await nav('Rides');
    await page.locator('#ride-lookup input[name=ride_id]').fill(ride.id);
    await page.locator('#ride-lookup button[type=submit]').click();
    const detail = page.locator('#ride-detail');
    const refund = detail.locator('form[data-action=refund-ride]');
    await refund.locator('input[name=amount]').fill('10.01');
    await refund.locator('input[name=reason]').fill('Dirty car');
    await refund.locator('button[type=submit]').click();
    await refund.locator('.status.error').waitFor();
    expect(await refund.locator('.status').textContent()).toBe('Refunds cannot exceed what the passenger paid for the ride [409]');
    await refund.locator('input[name=amount]').fill('2.5');
    await refund.locator('button[type=submit]').click();
    await detail.locator('dl.fields dd', { hasText: '2.50 USD' }).waitFor();
    expect((await t.db.query(`SELECT balance_minor FROM wallets WHERE user_id = $1`, [passenger.id]))[0].balance_minor).toBe(4250);
  }, 120_000);

  it('creates a promo code, reads a refusal for a bad one, and deactivates it, each with a reason', async () => {
    const code = `CONSOLE${process.pid % 10_000}`;
    await nav('Promo codes');
    const create = page.locator('form[data-action=create-promo]');
    const fill = async (value: string) => {
      await create.locator('input[name=code]').fill(code.toLowerCase());
      await create.locator('select[name=discount_type]').selectOption('percentage');
      await create.locator('input[name=discount_value]').fill(value);
      await create.locator('input[name=reason]').fill('Launch week');
      await create.locator('button[type=submit]').click();
    };
    await fill('150');
    await create.locator('.status.error').waitFor();
    expect(await create.locator('.status').textContent()).toMatch(/\[400\]$/);
    await fill('10');
    const row = page.locator('#promos-list tbody tr', { hasText: code });
    await row.waitFor();
    expect((await row.locator('td').allTextContents()).slice(0, 2)).toEqual([code, '10 %']);
    await row.locator('summary', { hasText: 'Deactivate' }).click();
    await row.locator('input[name=reason]').fill('Budget spent');
    await row.locator('button[type=submit]').click();
    await page.locator('#promos-list tbody tr', { hasText: code }).filter({ hasText: 'inactive' }).waitFor();
    expect(await t.db.query(`SELECT discount_value, is_active FROM promo_codes WHERE code = $1`, [code])).toEqual([{ discount_value: 10, is_active: false }]);
  }, 120_000);

  it('reloading keeps the session and the live socket (for alerts) reconnects; a dead access token is refreshed; signing out ends it', async () => {
    await page.reload();
    await page.locator('header.top .who').waitFor();
    await page.locator('#live-state.live').waitFor();

    // An access token that no longer works (as after its 15 minutes) is refreshed once, and the call goes through.
    await page.evaluate(
      "(() => { const s = JSON.parse(sessionStorage.getItem('console.session')); s.access_token = 'expired'; sessionStorage.setItem('console.session', JSON.stringify(s)); })()",
    );
    await page.reload();
    await nav('Operators');
    await page.locator('#operators-list tr', { hasText: admin.email }).waitFor();
    await page.locator('#live-state.live').waitFor();
    expect(await page.evaluate("JSON.parse(sessionStorage.getItem('console.session')).access_token")).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

    await page.locator('#sign-out').click();
    await expect(page.locator('.sign-in .status').textContent()).resolves.toBe('Signed out.');
    await signIn(admin.email);
    await page.locator('header.top .who').waitFor();
  }, 120_000);

  it('ran without a script error or a refused policy', () => {
    expect(session.complaints).toEqual([]);
  });
});
