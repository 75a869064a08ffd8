import { executeCommand } from '../../src/cli/commands';
import { DEV_CODE, freshEmail, freshPhone, post, verifyContact } from '../auth/auth-helpers';
import { LiveClient } from '../realtime/live-client';
import { createOperator, createUser, TestOperator } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const OPERATORS = '/api/v1/admin/operators';

describe('operator accounts (CONTRACT §13)', () => {
  let t: TestApp;
  let admin: TestOperator;

  const auditOf = async (targetId: number) =>
    (await t.request({ method: 'GET', url: `/api/v1/admin/audit?target_id=${targetId}`, token: admin.accessToken })).json().items;

  beforeAll(async () => {
    t = await startTestApp({ env: { NODE_ENV: 'development', OTP_DEV_FIXED_CODE: DEV_CODE } });
    admin = await createOperator(t, 'admin');
  });
  afterAll(() => t.close());

  it('npm run cli -- operator:add makes an operator who signs in by e-mail code (is_registered true), audited with actor_id null', async () => {
    const email = freshEmail();
    const printed = await executeCommand(t.app, ['operator:add', email.toUpperCase(), 'support', '--reason', 'New support hire']);
    expect(printed).toMatch(new RegExp(`^Operator (\\d+) \\(${email.replace('.', '\\.')}\\) added as support$`));
    const id = Number(/^Operator (\d+)/.exec(printed)![1]);

    const session = await verifyContact(t, { email });
    expect(session.is_registered).toBe(true);
    expect(session.user).toMatchObject({ id, email, role: 'operator', phone: null, is_email_verified: true });
    const list = await t.request({ method: 'GET', url: OPERATORS, token: session.access_token });
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toContainEqual({ id, email, operator_role: 'support', first_name: null, last_name: null, created_at: expect.any(String) });

    expect(await auditOf(id)).toEqual([
      {
        id: expect.any(Number),
        actor_id: null,
        action: 'operators.add',
        target_type: 'operator',
        target_id: id,
        reason: 'New support hire',
        details: { email, operator_role: 'support' },
        created_at: expect.any(String),
      },
    ]);
  });

  it('the CLI refuses a bad role, a bad e-mail and a short reason; without --reason it records its own', async () => {
    await expect(executeCommand(t.app, ['operator:add', freshEmail(), 'root'])).rejects.toThrow(/operator_role must be one of support, ops, finance, admin/);
    await expect(executeCommand(t.app, ['operator:add', 'not-an-email', 'ops'])).rejects.toThrow('email must be a valid e-mail address');
    await expect(executeCommand(t.app, ['operator:add', freshEmail(), 'ops', '--reason', ' x '])).rejects.toThrow('--reason must be 3 to 500 characters');
    const printed = await executeCommand(t.app, ['operator:add', freshEmail(), 'ops']);
    const id = Number(/^Operator (\d+)/.exec(printed)![1]);
    expect((await auditOf(id))[0]).toMatchObject({ actor_id: null, reason: 'Added with the operator CLI' });
  });

  it('register never makes an operator (400)', async () => {
    const verified = await verifyContact(t, { phone: freshPhone() });
    const res = await post(t, 'register', { role: 'operator', first_name: 'Eve' }, verified.access_token);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'role', message: 'role must be one of the following values: passenger, driver' }]);
  });

  it('POST /admin/operators: an admin adds one (201, audited with the admin as actor)', async () => {
    const email = freshEmail();
    const res = await t.request({
      method: 'POST',
      url: OPERATORS,
      token: admin.accessToken,
      payload: { email, operator_role: 'finance', reason: '  Quarter close  ' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ id: expect.any(Number), email, operator_role: 'finance', first_name: null, last_name: null, created_at: expect.any(String) });
    expect((await auditOf(body.id))[0]).toMatchObject({ actor_id: admin.id, action: 'operators.add', reason: 'Quarter close' });
    const session = await verifyContact(t, { email });
    expect(session.user.role).toBe('operator');
  });

  it('an e-mail of a complete account is 409 "Email already in use"; a pending sign-up holding it is replaced', async () => {
    const user = await createUser(t);
    const taken = await t.request({
      method: 'POST',
      url: OPERATORS,
      token: admin.accessToken,
      payload: { email: user.email, operator_role: 'ops', reason: 'Promote' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Email already in use' });
    expect(await auditOf(user.id)).toEqual([]);

    // Someone started a sign-up with the address and a phone of theirs: that phone must not lead into the operator account.
    const email = freshEmail();
    const phone = freshPhone();
    const pending = await verifyContact(t, { phone, email });
    expect(pending.is_registered).toBe(false);
    const added = await t.request({
      method: 'POST',
      url: OPERATORS,
      token: admin.accessToken,
      payload: { email, operator_role: 'ops', reason: 'New ops hire' },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json().id).not.toBe(pending.user.id);
    expect((await t.request({ method: 'GET', url: '/api/v1/auth/me', token: pending.access_token })).statusCode).toBe(401);
    expect((await post(t, 'send-otp', { phone })).statusCode).toBe(200);
    const byPhone = (await post(t, 'verify-otp', { phone, otp: DEV_CODE })).json();
    expect(byPhone.user).toMatchObject({ role: 'passenger', email: null });
    expect(byPhone.user.id).not.toBe(added.json().id);
  });

  it('validation: reason 3..500 characters, a known role, an e-mail, nothing else', async () => {
    const bad: Array<[object, string]> = [
      [{ email: freshEmail(), operator_role: 'ops' }, 'reason'],
      [{ email: freshEmail(), operator_role: 'ops', reason: '  ab  ' }, 'reason'],
      [{ email: freshEmail(), operator_role: 'ops', reason: 'x'.repeat(501) }, 'reason'],
      [{ email: freshEmail(), operator_role: 'root', reason: 'Promote' }, 'operator_role'],
      [{ email: freshEmail(), operator_role: 'ops', reason: 'Promote', role: 'admin' }, 'role'],
    ];
    for (const [payload, field] of bad) {
      const res = await t.request({ method: 'POST', url: OPERATORS, token: admin.accessToken, payload });
      expect([field, res.statusCode, res.json().details?.[0]?.field]).toEqual([field, 400, field]);
    }
    const reason = await t.request({
      method: 'POST',
      url: OPERATORS,
      token: admin.accessToken,
      payload: { email: freshEmail(), operator_role: 'ops', reason: 'ab' },
    });
    expect(reason.json()).toMatchObject({ statusCode: 400, message: 'reason must be 3 to 500 characters' });
    const email = await t.request({
      method: 'POST',
      url: OPERATORS,
      token: admin.accessToken,
      payload: { email: 'nope', operator_role: 'ops', reason: 'Promote' },
    });
    expect(email.json()).toMatchObject({ statusCode: 400, message: 'email must be a valid e-mail address' });
    const longest = await t.request({
      method: 'POST',
      url: OPERATORS,
      token: admin.accessToken,
      payload: { email: freshEmail(), operator_role: 'ops', reason: 'é'.repeat(500) },
    });
    expect(longest.statusCode).toBe(201);
  });

  it('DELETE /admin/operators/{id}: the account goes, its tokens and live sockets at once (4403); audited', async () => {
    const support = await createOperator(t, 'support');
    const socket = await LiveClient.connect(t, support.accessToken);
    expect(socket.pending()).toEqual([]);
    const res = await t.request({ method: 'DELETE', url: `${OPERATORS}/${support.id}`, token: admin.accessToken, payload: { reason: 'Left the company' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Operator removed' });
    expect((await socket.closed).code).toBe(4403);
    expect((await t.request({ method: 'GET', url: OPERATORS, token: support.accessToken })).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: '/api/v1/auth/refresh-token', payload: { refresh_token: support.refreshToken } })).statusCode).toBe(401);
    expect((await auditOf(support.id))[0]).toMatchObject({
      actor_id: admin.id,
      action: 'operators.remove',
      reason: 'Left the company',
      details: { email: support.email, operator_role: 'support' },
    });
  });

  it('DELETE: unknown or not an operator 404, one’s own account 409, a reason required, a bad id 400', async () => {
    const passenger = await createUser(t);
    for (const id of [987654321, passenger.id]) {
      const res = await t.request({ method: 'DELETE', url: `${OPERATORS}/${id}`, token: admin.accessToken, payload: { reason: 'Cleanup' } });
      expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Operator not found' });
    }
    const self = await t.request({ method: 'DELETE', url: `${OPERATORS}/${admin.id}`, token: admin.accessToken, payload: { reason: 'Cleanup' } });
    expect(self.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Operators cannot remove themselves' });
    const other = await createOperator(t, 'ops');
    expect((await t.request({ method: 'DELETE', url: `${OPERATORS}/${other.id}`, token: admin.accessToken })).statusCode).toBe(400);
    for (const id of ['abc', '0', '99999999999']) {
      const res = await t.request({ method: 'DELETE', url: `${OPERATORS}/${id}`, token: admin.accessToken, payload: { reason: 'Cleanup' } });
      expect([id, res.statusCode, res.json().message]).toEqual([id, 400, 'id must be a whole number from 1 to 2147483647']);
    }
    expect((await t.request({ method: 'GET', url: OPERATORS, token: other.accessToken })).statusCode).toBe(200);
  });

  it('an operator token works on the live socket: ride_snapshot with no ride', async () => {
    const ops = await createOperator(t, 'ops');
    const client = await LiveClient.open(`${t.wsUrl}/api/v1/ws/rides/live?token=${ops.accessToken}`);
    expect(await client.next('ride_snapshot')).toMatchObject({ type: 'ride_snapshot', ride_id: null, data: { ride: null } });
    await client.close();
  });
});
