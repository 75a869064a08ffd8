import { executeCommand } from '../../src/cli/commands';
import { createOperator, createUser, TestOperator, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);

async function uploadDocument(t: TestApp, driver: TestUser, kind: string): Promise<void> {
  const form = new FormData();
  form.append('kind', kind);
  form.append('file', new Blob([new Uint8Array(JPEG)], { type: 'image/jpeg' }), 'scan.jpg');
  const res = await fetch(`${t.baseUrl}/api/v1/driver/documents`, { method: 'POST', body: form, headers: { authorization: `Bearer ${driver.accessToken}` } });
  expect(res.status).toBe(201);
}

describe('admin drivers, approval needs documents (CONTRACT §13)', () => {
  let t: TestApp;
  let ops: TestOperator;
  let support: TestOperator;

  const post = (url: string, payload: object, token = ops.accessToken) => t.request({ method: 'POST', url: `/api/v1/admin/drivers/${url}`, token, payload });
  const auditOf = async (targetId: number) =>
    (await t.request({ method: 'GET', url: `/api/v1/admin/audit?target_id=${targetId}`, token: ops.accessToken })).json().items;
  const goOnline = (driver: TestUser) => t.request({ method: 'PUT', url: '/api/v1/driver/status', token: driver.accessToken, payload: { is_online: true } });

  beforeAll(async () => {
    t = await startTestApp({ env: { DRIVER_AUTO_APPROVE: 'false' } });
    [ops, support] = await Promise.all([createOperator(t, 'ops'), createOperator(t, 'support')]);
  });
  afterAll(() => t.close());

  it('GET /admin/drivers?status=pending lists the drivers waiting, newest first, paged; a bad status is 400', async () => {
    const a = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    const b = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    const res = await t.request({ method: 'GET', url: '/api/v1/admin/drivers?status=pending&limit=2', token: support.accessToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ page: 1, limit: 2, total: expect.any(Number) });
    expect(res.json().items.map((d: { user_id: number }) => d.user_id)).toEqual([b.id, a.id]);
    expect(res.json().items[0]).toMatchObject({ user_id: b.id, status: 'pending', is_online: false });
    const approved = (await t.request({ method: 'GET', url: '/api/v1/admin/drivers?status=approved', token: support.accessToken })).json().items;
    expect(approved.map((d: { user_id: number }) => d.user_id)).not.toContain(a.id);
    expect((await t.request({ method: 'GET', url: '/api/v1/admin/drivers?status=busy', token: support.accessToken })).statusCode).toBe(400);
  });

  it('approve without documents: 409 naming those missing; with both: approved, the driver can go online; audited', async () => {
    const driver = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    expect((await post(`${driver.id}/approve`, { reason: 'Checked in person' })).json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'Documents missing: license, vehicle_registration',
    });
    await uploadDocument(t, driver, 'license');
    expect((await post(`${driver.id}/approve`, { reason: 'Checked in person' })).json().message).toBe('Documents missing: vehicle_registration');
    await uploadDocument(t, driver, 'insurance');
    expect((await post(`${driver.id}/approve`, { reason: 'Checked in person' })).json().message).toBe('Documents missing: vehicle_registration');
    expect((await goOnline(driver)).statusCode).toBe(403);
    await uploadDocument(t, driver, 'vehicle_registration');
    const approved = await post(`${driver.id}/approve`, { reason: 'Licence and registration match' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ user_id: driver.id, status: 'approved' });
    expect((await goOnline(driver)).statusCode).toBe(200);
    expect(await auditOf(driver.id)).toEqual([
      expect.objectContaining({
        actor_id: ops.id,
        action: 'drivers.approve',
        target_type: 'driver',
        target_id: driver.id,
        reason: 'Licence and registration match',
        details: { previous_status: 'pending', status: 'approved' },
      }),
    ]);
  });

  it('suspend takes the driver offline; reinstate lifts it (409 for a driver not suspended); reject; each audited', async () => {
    const driver = await createUser(t, { role: 'driver', driverStatus: 'approved' });
    expect((await goOnline(driver)).statusCode).toBe(200);
    expect((await post(`${driver.id}/reinstate`, { reason: 'Back on duty' })).json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'Only a suspended driver can be reinstated',
    });
    expect((await post(`${driver.id}/suspend`, { reason: 'Three complaints this week' })).json()).toMatchObject({ status: 'suspended', is_online: false });
    expect((await goOnline(driver)).statusCode).toBe(403);
    expect((await post(`${driver.id}/reinstate`, { reason: 'Complaints cleared' })).json()).toMatchObject({ status: 'approved' });
    expect((await post(`${driver.id}/reject`, { reason: 'Licence expired' })).json()).toMatchObject({ status: 'rejected', is_online: false });
    expect((await auditOf(driver.id)).map((e: { action: string }) => e.action)).toEqual(['drivers.reject', 'drivers.reinstate', 'drivers.suspend']);
  });

  it('two reinstatements at once: the row lock lets one through, the other sees the driver approved (409); one audit entry', async () => {
    const driver = await createUser(t, { role: 'driver', driverStatus: 'suspended' });
    const results = await Promise.all([post(`${driver.id}/reinstate`, { reason: 'First desk' }), post(`${driver.id}/reinstate`, { reason: 'Second desk' })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await auditOf(driver.id)).map((e: { action: string }) => e.action)).toEqual(['drivers.reinstate']);
  });

  it('a reason is required, an unknown driver is 404, support may not decide (403); nothing changes', async () => {
    const driver = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    const res = await post(`${driver.id}/reject`, {});
    expect([res.statusCode, res.json().details]).toEqual([400, [{ field: 'reason', message: 'reason must be a string' }]]);
    expect((await post('987654321/reject', { reason: 'Licence expired' })).json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Driver profile not found',
    });
    expect((await post(`${driver.id}/reject`, { reason: 'Licence expired' }, support.accessToken)).json().message).toBe('Not allowed for your role');
    expect((await t.db.query('SELECT status FROM drivers WHERE user_id = $1', [driver.id]))[0].status).toBe('pending');
    expect(await auditOf(driver.id)).toEqual([]);
  });

  it('the CLI approves through the same rule: documents needed, audited with actor_id null', async () => {
    const driver = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    await expect(executeCommand(t.app, ['driver:approve', String(driver.id)])).rejects.toThrow('Documents missing: license, vehicle_registration');
    await uploadDocument(t, driver, 'license');
    await uploadDocument(t, driver, 'vehicle_registration');
    expect(await executeCommand(t.app, ['driver:approve', String(driver.id), '--reason', 'Seen at the office'])).toBe(`Driver ${driver.id} is now approved`);
    expect(await auditOf(driver.id)).toEqual([expect.objectContaining({ actor_id: null, action: 'drivers.approve', reason: 'Seen at the office' })]);
  });
});

describe('DRIVER_AUTO_APPROVE on: approval needs no documents', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { DRIVER_AUTO_APPROVE: 'true' } });
  });
  afterAll(() => t.close());

  it('approve without documents is 200', async () => {
    const ops = await createOperator(t, 'ops');
    const driver = await createUser(t, { role: 'driver', driverStatus: 'suspended' });
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/admin/drivers/${driver.id}/approve`,
      token: ops.accessToken,
      payload: { reason: 'Auto-approve city' },
    });
    expect([res.statusCode, res.json().status]).toEqual([200, 'approved']);
  });
});
