import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { acceptedRide, bookRide, PICKUP } from '../rides/ride-helpers';
import { createOperator, createUser, type TestOperator, type TestUser } from '../support/factories';
import type { TestApp } from '../support/test-app';
import { openConsole, type ConsoleSession } from './console-session';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/**
 * The "done when" in a browser (CONTRACT §13): an operator signs in to the console, sees a
 * pending driver's documents, approves the driver, and the driver can go online. Then the live map.
 * Approval needs the documents here (DRIVER_AUTO_APPROVE=false). `UPDATE_SCREENSHOT=1` also rewrites
 * docs/console.png, the README's picture, at the moment a licence is on screen.
 */
describe('the console: drivers, their documents and the live map, in headless Chromium', () => {
  let session: ConsoleSession;
  let t: TestApp;
  let page: Page;
  let ops: TestOperator;

  /** What a driver's app sends: a multipart upload with the driver's token. */
  async function upload(driver: TestUser, kind: string, bytes: Buffer, type: string): Promise<void> {
    const form = new FormData();
    form.append('kind', kind);
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), `${kind}.bin`);
    const res = await fetch(`${t.baseUrl}/api/v1/driver/documents`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${driver.accessToken}` },
    });
    if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  }

  /** A licence scan as a real PNG, drawn by the browser itself (no binary fixture in the repository). */
  async function licenceScan(name: string): Promise<Buffer> {
    const scratch = await page.context().newPage();
    await scratch.setViewportSize({ width: 420, height: 260 });
    await scratch.setContent(
      `<body style="margin:0;font:16px sans-serif"><div style="width:400px;height:240px;margin:10px;border-radius:14px;background:#dbe7f7;border:2px solid #7a9cc6;padding:18px;box-sizing:border-box">` +
        `<b style="font-size:20px">DRIVING LICENCE</b><p>${name}</p><p>No. L-1234567 · Class B</p><p>Valid until 2031-05-01</p></div></body>`,
    );
    const png = await scratch.screenshot({ clip: { x: 0, y: 0, width: 420, height: 260 } });
    await scratch.close();
    return png;
  }

  beforeAll(async () => {
    session = await openConsole({ DRIVER_AUTO_APPROVE: 'false' });
    ({ t, page } = session);
    ops = await createOperator(t, 'ops');
  }, 120_000);
  afterAll(() => session?.close());

  it('shows a pending driver with documents, refuses one without them (409 naming them), approves the first; the driver goes online', async () => {
    const driver = await createUser(t, { role: 'driver', driverStatus: 'pending', firstName: 'Dana' });
    const bare = await createUser(t, { role: 'driver', driverStatus: 'pending', firstName: 'Bo' });
    await upload(driver, 'license', await licenceScan('Dana Test'), 'image/png');
    await upload(driver, 'vehicle_registration', PDF, 'application/pdf');

    await session.signIn(ops.email);
    await session.nav('Drivers');
    const card = page.locator(`article.driver[data-driver-id="${driver.id}"]`);
    await card.locator('h3', { hasText: `Dana Test (#${driver.id})` }).waitFor();
    const documents = card.locator('.document-list li');
    await documents.nth(1).waitFor();
    expect(await documents.evaluateAll((items) => items.map((li) => (li as unknown as { dataset: { kind: string } }).dataset.kind))).toEqual([
      'license',
      'vehicle_registration',
    ]);
    await documents.filter({ hasText: 'Driving licence' }).locator('button', { hasText: 'View' }).click();
    const image = card.locator('img.document-image');
    await image.waitFor();
    // Fetched with the token, decoded by the browser: the licence itself, not a broken image.
    await page.waitForFunction((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete, await image.elementHandle());
    expect(await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(420);
    expect(await card.locator('.preview a', { hasText: 'Open in a new tab' }).getAttribute('href')).toMatch(/^blob:/);
    if (process.env.UPDATE_SCREENSHOT === '1') await page.screenshot({ path: join(__dirname, '..', '..', 'docs', 'console.png') });

    const bareCard = page.locator(`article.driver[data-driver-id="${bare.id}"]`);
    await bareCard.locator('p', { hasText: 'No documents uploaded.' }).waitFor();
    await bareCard.locator('summary', { hasText: 'Approve' }).click();
    const refused = bareCard.locator('form[data-action=approve-driver]');
    await refused.locator('input[name=reason]').fill('Looks fine to me');
    await refused.locator('button[type=submit]').click();
    await refused.locator('.status.error').waitFor();
    expect(await refused.locator('.status').textContent()).toBe('Documents missing: license, vehicle_registration [409]');

    await card.locator('summary', { hasText: 'Approve' }).click();
    const approve = card.locator('form[data-action=approve-driver]');
    await approve.locator('input[name=reason]').fill('Licence and registration checked');
    await approve.locator('button[type=submit]').click();
    // The pending list reloads without the approved driver.
    await card.waitFor({ state: 'detached' });
    expect((await t.db.query(`SELECT status FROM drivers WHERE user_id = $1`, [driver.id]))[0].status).toBe('approved');
    const online = await t.request({
      method: 'PUT',
      url: '/api/v1/driver/status',
      token: driver.accessToken,
      payload: { is_online: true },
    });
    expect(online.statusCode).toBe(200);
    const [entry] = await t.db.query(`SELECT actor_id, reason FROM audit_log WHERE target_id = $1 AND action LIKE '%approve%'`, [String(driver.id)]);
    expect(entry).toEqual({ actor_id: ops.id, reason: 'Licence and registration checked' });
  }, 120_000);

  it('draws the online drivers and open requests on the live map', async () => {
    const driver = await createUser(t, { role: 'driver' });
    await t.request({ method: 'PUT', url: '/api/v1/driver/status', token: driver.accessToken, payload: { is_online: true } });
    const heard = await t.request({
      method: 'PUT',
      url: '/api/v1/driver/location',
      token: driver.accessToken,
      payload: { latitude: PICKUP.latitude + 0.01, longitude: PICKUP.longitude },
    });
    expect(heard.statusCode).toBe(200);
    const ride = await bookRide(t, await createUser(t));

    await session.nav('Live map');
    await page.locator('#live-map circle.driver.available title', { hasText: `Driver ${driver.id},` }).waitFor({ state: 'attached' });
    await page.locator('#live-map rect.request title', { hasText: ride.id }).waitFor({ state: 'attached' });
    expect(await page.locator('#live-summary').textContent()).toMatch(/^\d+ drivers, \d+ open requests · updated .* · every 5 s$/);
  }, 120_000);

  it('an SOS raised on a ride arrives as an alert over the live socket; the operator resolves it with a reason', async () => {
    const { passenger, rideId } = await acceptedRide(t);
    await page.locator('#live-state.live').waitFor();
    const raised = await t.request({ method: 'POST', url: `/api/v1/rides/${rideId}/sos`, token: passenger.accessToken, payload: {} });
    expect(raised.statusCode).toBe(201);
    await page.locator('#alerts .alert.sos_raised', { hasText: 'SOS raised' }).waitFor();

    await page.locator('#alerts .alert.sos_raised a', { hasText: 'Open' }).click();
    const row = page.locator('#sos-list tbody tr', { hasText: rideId });
    await row.waitFor();
    expect(await row.locator('td').nth(2).textContent()).toBe(`passenger #${passenger.id}`);
    await row.locator('input[name=reason]').fill('Called the passenger: all fine');
    await row.locator('button[type=submit]').click();
    await row.waitFor({ state: 'detached' });
    const [alert] = await t.db.query(`SELECT status, resolution_reason FROM sos_alerts WHERE ride_id = $1`, [rideId]);
    expect(alert).toEqual({ status: 'resolved', resolution_reason: 'Called the passenger: all fine' });
  }, 120_000);

  it('ran without a script error or a refused policy', () => {
    expect(session.complaints).toEqual([]);
  });
});
