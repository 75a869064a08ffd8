import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DEV_CODE, freshEmail, signUp, startAuthApp } from '../auth/auth-helpers';
import { launchChromium, type Browser } from '../support/chromium';
import { createOperator, type TestOperator } from '../support/factories';
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
    await expect(page.locator('.sign-in .status').textContent()).resolves.toBe('This account is not an operator: the console is for operators only.');
    expect(await page.locator('header.top').count()).toBe(0);
  }, 120_000);

  it('a wrong code is refused with the contract\'s message', async () => {
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
    expect(await entry.locator('td').allTextContents()).toEqual([expect.stringMatching(/ UTC$/), `operator ${admin.id}`, 'operators.add', `operator ${added.id}`, 'New support hire']);
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

  it('a screen whose endpoint this server lacks says so instead of failing', async () => {
    await signIn(admin.email);
    await page.locator('header.top .who').waitFor();
    const says = async (selector: string, text: string) => {
      await page.locator(selector, { hasText: text }).waitFor();
    };
    await nav('Drivers');
    await says('#drivers-list .status.error', 'The drivers list is not available on this server yet.');
    await nav('Users');
    await page.locator('#user-search input[name=query]').fill('ada');
    await page.locator('#user-search button[type=submit]').click();
    await says('#users-list .status.error', 'User search is not available on this server yet.');
    await nav('Rides');
    await page.locator('#ride-lookup input[name=ride_id]').fill('ABC123');
    await page.locator('#ride-lookup button[type=submit]').click();
    await says('#ride-detail .status.error', 'A ride id is a UUID');
    await page.locator('#ride-lookup input[name=ride_id]').fill('6f1c1b7e-1d7a-4c57-9a55-3f8f1e2b9c10');
    await page.locator('#ride-lookup button[type=submit]').click();
    await says('#ride-detail .status.error', 'The ride page is not available on this server yet.');
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
