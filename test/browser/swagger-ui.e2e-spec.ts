import type { Locator, Page } from 'playwright-core';
import { LIVE_EVENT_TYPES } from '../../src/bootstrap/openapi-description';
import { DEV_CODE, startAuthApp } from '../auth/auth-helpers';
import { createOperator } from '../support/factories';
import { launchChromium, type Browser } from '../support/chromium';
import type { TestApp } from '../support/test-app';

/** Generous: the machine may be busy, and the Swagger UI bundle is large. */
const UI_TIMEOUT = 30_000;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The explorer as a person uses it, in a real browser: "Try it out" on the pre-filled body, Execute,
 * and read the answer from the response panel. Contacts are the only thing changed in a body (each
 * run needs its own account); everything else is sent exactly as the document pre-fills it.
 */
describe('Swagger UI in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  const phone = `+1555${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 10_000).padStart(4, '0')}`;
  const email = `swagger${process.pid}x${Date.now()}@example.test`;

  beforeAll(async () => {
    browser = await launchChromium();
    t = await startAuthApp();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(UI_TIMEOUT);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const operation = (operationId: string): Locator => page.locator(`.opblock[id$="-${operationId}"]`);

  async function openExplorer(): Promise<void> {
    await page.goto(`${t.baseUrl}/docs`);
    await operation('AuthController_sendOtp').waitFor();
  }

  /** Expands the operation, presses "Try it out", sends the pre-filled body (contacts replaced) and reads the answer. */
  async function execute(operationId: string): Promise<Answer> {
    const op = operation(operationId);
    await op.scrollIntoViewIfNeeded();
    if (!(await op.locator('button.try-out__btn').isVisible())) await op.locator('.opblock-summary-control').click();
    await op.locator('button.try-out__btn').click();
    const editor = op.locator('textarea.body-param__text');
    const prefilled = await editor.inputValue();
    expect(prefilled.trim()).not.toBe('');
    const body = prefilled.replace(/"phone":\s*"[^"]*"/g, `"phone": "${phone}"`).replace(/"email":\s*"[^"]*"/g, `"email": "${email}"`);
    if (body !== prefilled) await editor.fill(body);
    await op.locator('button.execute').click();
    const live = op.locator('.live-responses-table');
    const status = Number((await live.locator('.response .response-col_status').first().textContent())?.trim());
    const text = await live.locator('.response-col_description .highlight-code pre').first().textContent();
    return { status, body: text ? JSON.parse(text) : {} };
  }

  /** Like execute, with the body given instead of the pre-filled one (none for a GET). */
  async function executeWith(operationId: string, body?: object): Promise<Answer> {
    const op = operation(operationId);
    await op.scrollIntoViewIfNeeded();
    if (!(await op.locator('button.try-out__btn').isVisible())) await op.locator('.opblock-summary-control').click();
    await op.locator('button.try-out__btn').click();
    if (body) await op.locator('textarea.body-param__text').fill(JSON.stringify(body));
    await op.locator('button.execute').click();
    const live = op.locator('.live-responses-table');
    const status = Number((await live.locator('.response .response-col_status').first().textContent())?.trim());
    const text = await live.locator('.response-col_description .highlight-code pre').first().textContent();
    return { status, body: text ? JSON.parse(text) : {} };
  }

  async function authorize(token: string): Promise<void> {
    await page.locator('.scheme-container button.authorize').click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.locator('.auth-container input').fill(token);
    await dialog.locator('button.modal-btn.authorize').click();
    await dialog.locator('button.btn-done').click();
    await page.locator('.scheme-container button.authorize.locked').waitFor();
  }

  it('opens with the sign-in recipe; each live event name stays on one line, apart from the next column, wide or narrow', async () => {
    for (const width of [1280, 480]) {
      await page.setViewportSize({ width, height: 900 });
      await openExplorer();
      const info = page.locator('.information-container .info');
      const text = await info.innerText();
      expect([width, text.indexOf('Sign in first') >= 0, text.indexOf('Sign in first') < text.indexOf('Conventions.')]).toEqual([width, true, true]);
      const cells = await info.locator('table tbody tr').evaluateAll((rows) =>
        rows.map((row) => {
          const code = row.querySelector('td:first-child code')!;
          const range = row.ownerDocument.createRange();
          range.selectNodeContents(code);
          return {
            type: code.textContent,
            lines: range.getClientRects().length,
            apart: row.children[1]!.getBoundingClientRect().left > code.getBoundingClientRect().right,
          };
        }),
      );
      expect(cells.map((c) => c.type)).toEqual(LIVE_EVENT_TYPES);
      for (const c of cells) expect({ width, ...c }).toEqual({ width, type: c.type, lines: 1, apart: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 120_000);

  it('goes from send-otp to a booked ride with the pre-filled bodies, Authorize surviving a reload', async () => {
    await openExplorer();

    const sent = await execute('AuthController_sendOtp');
    expect([sent.status, sent.body]).toEqual([200, expect.anything()]);

    // The pre-filled code is the fixed development code the service was started with.
    const verified = await execute('AuthController_verifyOtp');
    expect(verified.status).toBe(200);
    const verifyBody = verified.body;
    const token = verifyBody.access_token as string;
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(verifyBody.is_registered).toBe(false);
    const userId = (verifyBody.user as { id: number }).id;

    // The padlock closes ("locked") once an authorisation is held.
    await authorize(token);
    const locked = page.locator('.scheme-container button.authorize.locked');

    // persistAuthorization keeps the token in localStorage: a reload is still authorised.
    await page.reload();
    await operation('AuthController_sendOtp').waitFor();
    await locked.waitFor();

    const registered = await execute('AuthController_register');
    expect(registered.status).toBe(200);
    expect(registered.body.user).toMatchObject({ id: userId, phone, email, role: 'passenger' });

    const estimate = await execute('RidesController_estimate');
    expect(estimate.status).toBe(200);
    expect(estimate.body).toMatchObject({ ride_type: 'one_way', breakdown: { total: expect.any(Number) } });

    const booked = await execute('RidesController_book');
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({ status: 'requested', ride_type: 'one_way', passenger: { id: userId } });
    // The ride really exists, for the account the UI was authorised as.
    const [ride] = await t.db.query('SELECT passenger_id, status FROM rides WHERE id = $1', [booked.body.id]);
    expect(ride).toEqual({ passenger_id: userId, status: 'requested' });
  }, 120_000);

  it('an operator signs in by e-mail code, authorizes, and works the "operators" section', async () => {
    const operator = await createOperator(t, 'support');
    await page.evaluate('localStorage.clear()'); // forget the passenger's authorisation
    await openExplorer();
    expect((await executeWith('AuthController_sendOtp', { email: operator.email })).status).toBe(200);
    const verified = await executeWith('AuthController_verifyOtp', { email: operator.email, otp: DEV_CODE });
    expect([verified.status, verified.body.is_registered]).toEqual([200, true]);
    await authorize(verified.body.access_token as string);

    // The operator endpoints sit in their own section, and the token works there.
    expect(await operation('AdminRidesController_list').getAttribute('id')).toBe('operations-operators-AdminRidesController_list');
    const rides = await executeWith('AdminRidesController_list');
    expect([rides.status, rides.body]).toEqual([200, expect.objectContaining({ items: expect.any(Array), page: 1 })]);
    const live = await executeWith('AdminLiveController_view');
    expect([live.status, live.body]).toEqual([200, { drivers: expect.any(Array), open_requests: expect.any(Array) }]);
  }, 120_000);
});
