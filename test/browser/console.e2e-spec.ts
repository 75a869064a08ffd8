import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DEV_CODE, freshEmail, signUp, startAuthApp } from '../auth/auth-helpers';
import { launchChromium, type Browser } from '../support/chromium';
import { acceptedRide } from '../rides/ride-helpers';
import { createOperator, createUser, type TestOperator } from '../support/factories';
import type { TestApp } from '../support/test-app';

const UI_TIMEOUT = 30_000;

/**
 * The operator console (CONTRACT §13) as an operator uses it, in headless Chromium: every step goes
 * through the console's own forms and links, never the API behind it; the database is read only to
 * check what a step did. `UPDATE_SCREENSHOT=1` also rewrites docs/console.png (the README shows it).
 */
describe('the operator console in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let admin: TestOperator;
  /** What the browser complained about: a CSP violation or a script error would land here. */
  const complaints: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    t = await startAuthApp();
    admin = await createOperator(t, 'admin');
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(UI_TIMEOUT);
    await page.setViewportSize({ width: 1280, height: 860 });
    page.on('console', (message) => {
      // A refused call is logged by Chromium as a failed resource; only script and policy errors count.
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) complaints.push(message.text());
    });
    page.on('pageerror', (error) => complaints.push(error.message));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const status = (form: string) => page.locator(`form${form} .status`);
  const nav = (label: string) => page.locator('header.top nav a', { hasText: label }).click();

  async function signIn(email: string): Promise<void> {
    await page.goto(`${t.baseUrl}/console`);
    // The tab keeps its session across page loads: a signed-in operator signs out first.
    await page.locator('#send-code, #sign-out').first().waitFor();
    if (await page.locator('#sign-out').count()) await page.locator('#sign-out').click();
    await page.locator('#send-code input[name=email]').fill(email);
    await page.locator('#send-code button[type=submit]').click();
    // The app runs with the fixed development code, as every sign-in test reads it.
    await page.locator('#verify-code input[name=otp]').fill(DEV_CODE);
    await page.locator('#verify-code button[type=submit]').click();
  }

  it('refuses a passenger who signs in: the console is for operators only', async () => {
    const email = freshEmail();
    await signUp(t, { email });
    await signIn(email);
    await page.locator('.sign-in .status.error').waitFor();
    await expect(page.locator('.sign-in .status').textContent()).resolves.toBe(
      'This account is not an operator: the console is for operators only.',
    );
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
    expect(
      await add.locator('input[name=reason]').evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid),
    ).toBe(false);

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

  it('finds a user by e-mail, blocks and unblocks them with a reason', async () => {
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
    const audit = await t.db.query(`SELECT action, reason, actor_id FROM audit_log WHERE target_id = $1 ORDER BY id`, [
      String(passenger.id),
    ]);
    expect(audit).toEqual([
      { action: expect.stringMatching(/block/), reason: 'Reported for abuse', actor_id: admin.id },
      { action: expect.stringMatching(/unblock/), reason: 'Appeal accepted', actor_id: admin.id },
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
    expect((await history.locator('td').allTextContents()).slice(1)).toEqual([
      'cancelled',
      `operator ${admin.id}`,
      'Passenger called support',
    ]);
    expect(await detail.locator('form[data-action=cancel-ride]').count()).toBe(0);
    expect((await t.db.query(`SELECT status, cancelled_by FROM rides WHERE id = $1`, [rideId]))[0]).toEqual({
      status: 'cancelled',
      cancelled_by: 'operator',
    });
  }, 120_000);

  it('a screen whose endpoint this server lacks says so instead of failing', async () => {
    const says = (selector: string, text: string) => page.locator(selector, { hasText: text }).waitFor();
    await nav('Drivers');
    await says('#drivers-list .status.error', 'The drivers list is not available on this server yet.');
    await nav('Live map');
    await says('#live-summary', 'The live view is not available on this server yet.');
    await nav('SOS alerts');
    await says('#sos-list .status.error', 'The SOS list is not available on this server yet.');
  }, 120_000);

  it('reloading keeps the session and the live socket (for alerts) reconnects; signing out ends it', async () => {
    await page.reload();
    await page.locator('header.top .who').waitFor();
    await page.locator('#live-state.live').waitFor();
    await page.locator('#sign-out').click();
    await expect(page.locator('.sign-in .status').textContent()).resolves.toBe('Signed out.');
    await signIn(admin.email);
    await page.locator('header.top .who').waitFor();
  }, 120_000);

  it('ran without a script error or a refused policy', () => {
    expect(complaints).toEqual([]);
  });

  it('makes the README screenshot on request', async () => {
    if (process.env.UPDATE_SCREENSHOT !== '1') return;
    await nav('Operators');
    await page.locator('#operators-list table').waitFor();
    await page.screenshot({ path: join(__dirname, '..', '..', 'docs', 'console.png'), fullPage: false });
  }, 60_000);
});
