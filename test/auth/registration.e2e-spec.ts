import { createUser } from '../support/factories';
import { TestApp } from '../support/test-app';
import { decodeJwt, freshEmail, freshPhone, PNG_1X1, post, signUp, startAuthApp, verifyContact } from './auth-helpers';

const JPEG_BYTES = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const WEBP_BYTES = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(14)]);

describe('POST /api/v1/auth/register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startAuthApp({ DRIVER_AUTO_APPROVE: 'false', PROFILE_PICTURE_MAX_BYTES: '2048', PUBLIC_BASE_URL: 'https://cdn.example.test/' });
  });
  afterAll(() => t.close());

  it('verified → registered: names, role, device token, wallet, tokens; refresh hash stored; response shape of CONTRACT 3', async () => {
    const phone = freshPhone();
    const verified = await verifyContact(t, { phone });
    const res = await post(t, 'register', { role: 'passenger', first_name: 'Ada', last_name: 'Lovelace', push_token: 'push-1' }, verified.access_token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type', 'user']);
    expect(body.token_type).toBe('bearer');
    expect(body.user).toMatchObject({ id: verified.user.id, phone, first_name: 'Ada', last_name: 'Lovelace', role: 'passenger' });
    expect(body.user).not.toHaveProperty('device_token');
    const [row] = await t.db.query(`SELECT * FROM users WHERE id = $1`, [body.user.id]);
    expect(row).toMatchObject({ is_registered: true, device_token: 'push-1' });
    expect(row.registered_at).not.toBeNull();
    expect(row.refresh_token_hash).not.toBeNull();
    expect(row.refresh_token_hash).not.toBe(body.refresh_token);
    expect(await t.db.query(`SELECT user_id, balance_minor FROM wallets WHERE user_id = $1`, [body.user.id])).toEqual([
      { user_id: body.user.id, balance_minor: 0 },
    ]);
    const wallet = await t.request({ method: 'GET', url: '/api/v1/wallet', token: body.access_token });
    expect(wallet.statusCode).toBe(200);
    expect(wallet.json()).toMatchObject({ balance: 0, currency: 'USD' });
    // The verify-otp refresh token was replaced.
    const old = await post(t, 'refresh-token', { refresh_token: verified.refresh_token });
    expect(old.json().message).toBe('Invalid refresh token');
    expect((await post(t, 'refresh-token', { refresh_token: body.refresh_token })).statusCode).toBe(200);
  });

  it('a driver gets a driver record with status pending (DRIVER_AUTO_APPROVE=false) and a driver access token', async () => {
    const signed = await signUp(t, { role: 'driver' });
    expect(signed.user.role).toBe('driver');
    expect(decodeJwt(signed.access_token).claims.role).toBe('driver');
    expect(await t.db.query(`SELECT status FROM drivers WHERE user_id = $1`, [signed.user.id])).toEqual([{ status: 'pending' }]);
    const me = await t.request({ method: 'GET', url: '/api/v1/auth/me', token: signed.access_token });
    expect(me.json().driver).toMatchObject({
      user_id: signed.user.id,
      status: 'pending',
      is_online: false,
      rating: null,
      ratings_count: 0,
      last_location: null,
    });
  });

  it('a passenger gets no driver record', async () => {
    const signed = await signUp(t);
    expect(await t.db.query(`SELECT 1 FROM drivers WHERE user_id = $1`, [signed.user.id])).toEqual([]);
  });

  it('without an access token: 401', async () => {
    expect((await post(t, 'register', { role: 'passenger' })).statusCode).toBe(401);
  });

  it('check 1: a completed account: 409 Account already completed — use login', async () => {
    const signed = await signUp(t);
    const res = await post(t, 'register', { role: 'driver' }, signed.access_token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Account already completed \u2014 use login' });
    expect(await t.db.query(`SELECT role FROM users WHERE id = $1`, [signed.user.id])).toEqual([{ role: 'passenger' }]);
  });

  it('check 2: not verified: 403 Verify OTP before completing registration', async () => {
    const user = await createUser(t, { registered: false });
    await t.db.query(`UPDATE users SET is_verified = false WHERE id = $1`, [user.id]);
    const res = await post(t, 'register', { role: 'passenger' }, user.accessToken);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Verify OTP before completing registration');
  });

  it('check 3: a body e-mail another user holds, for a user without e-mail: 409 Email already in use', async () => {
    const other = await createUser(t);
    const verified = await verifyContact(t, { phone: freshPhone() });
    const res = await post(t, 'register', { role: 'passenger', email: other.email.toUpperCase() }, verified.access_token);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Email already in use');
  });

  it('check 4: a different phone: 400 Phone does not match the verified account', async () => {
    const verified = await verifyContact(t, { phone: freshPhone() });
    const res = await post(t, 'register', { role: 'passenger', phone: freshPhone() }, verified.access_token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Phone does not match the verified account');
  });

  it('check 4: a different e-mail: 400 Email does not match the verified account', async () => {
    const verified = await verifyContact(t, { email: freshEmail() });
    const res = await post(t, 'register', { role: 'passenger', email: freshEmail() }, verified.access_token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Email does not match the verified account');
  });

  it('check 4: the same contacts in another spelling pass; missing ones are filled from the body', async () => {
    const phone = freshPhone();
    const email = freshEmail();
    const verified = await verifyContact(t, { phone });
    const res = await post(t, 'register', { role: 'passenger', phone: phone.slice(1), email: ` ${email.toUpperCase()}` }, verified.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ phone, email, is_email_verified: false });
  });

  it('check 7: a database conflict (a filled-in phone another user holds): 400 Registration failed due to duplicate or invalid data', async () => {
    const other = await createUser(t);
    const verified = await verifyContact(t, { email: freshEmail() });
    const res = await post(t, 'register', { role: 'passenger', phone: other.phone }, verified.access_token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Registration failed due to duplicate or invalid data');
    // Nothing was written.
    const [row] = await t.db.query(`SELECT is_registered, phone FROM users WHERE id = $1`, [verified.user.id]);
    expect(row).toEqual({ is_registered: false, phone: null });
    expect(await t.db.query(`SELECT 1 FROM wallets WHERE user_id = $1`, [verified.user.id])).toEqual([]);
  });

  it('check 8: storing the refresh token fails: 409 Could not issue session tokens. Please login again (the account stays completed)', async () => {
    const email = freshEmail();
    const verified = await verifyContact(t, { email });
    // A real database failure on exactly that write, for exactly this user.
    await t.db.query(`
      CREATE FUNCTION fail_session_store() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION USING ERRCODE = 'unique_violation', MESSAGE = 'injected'; END $$`);
    await t.db.query(`
      CREATE TRIGGER fail_session_store BEFORE UPDATE OF refresh_token_hash ON users FOR EACH ROW
      WHEN (NEW.email = '${email}' AND OLD.is_registered) EXECUTE FUNCTION fail_session_store()`);
    try {
      const res = await post(t, 'register', { role: 'passenger' }, verified.access_token);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('Could not issue session tokens. Please login again');
      expect(await t.db.query(`SELECT is_registered FROM users WHERE id = $1`, [verified.user.id])).toEqual([{ is_registered: true }]);
    } finally {
      await t.db.query(`DROP TRIGGER fail_session_store ON users`);
      await t.db.query(`DROP FUNCTION fail_session_store`);
    }
  });

  it('two concurrent registrations of one user: one succeeds, the other is told the account is completed', async () => {
    const verified = await verifyContact(t, { phone: freshPhone() });
    const results = await Promise.all([
      post(t, 'register', { role: 'driver' }, verified.access_token),
      post(t, 'register', { role: 'driver' }, verified.access_token),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await t.db.query(`SELECT count(*)::int AS n FROM drivers WHERE user_id = $1`, [verified.user.id])).toEqual([{ n: 1 }]);
  });

  it('role is required and must be passenger or driver; unknown fields are refused', async () => {
    const verified = await verifyContact(t, { phone: freshPhone() });
    for (const body of [{}, { role: 'admin' }, { role: 'passenger', is_blocked: false }, { role: 'passenger', is_verified: true }]) {
      const res = await post(t, 'register', body, verified.access_token);
      expect(res.statusCode).toBe(400);
      expect(res.json().details.length).toBeGreaterThan(0);
    }
  });

  describe('profile picture', () => {
    it.each([
      ['PNG, plain base64', PNG_1X1, 'png', 'image/png'],
      ['PNG, data URL', `data:image/png;base64,${PNG_1X1}`, 'png', 'image/png'],
      ['JPEG', JPEG_BYTES.toString('base64'), 'jpg', 'image/jpeg'],
      ['WebP', WEBP_BYTES.toString('base64'), 'webp', 'image/webp'],
    ])('%s is stored and served back at profile_picture with its content type', async (_name, data, ext, contentType) => {
      const signed = await signUp(t, { extra: { profile_picture_base64: data } });
      const url = signed.user.profile_picture as string;
      expect(url).toMatch(new RegExp(`^https://cdn\\.example\\.test/uploads/[0-9a-f]{32}\\.${ext}$`));
      const served = await t.request({ method: 'GET', url: url.replace('https://cdn.example.test', '') });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(contentType);
      expect(served.rawPayload.equals(Buffer.from(data.replace(/^data:[^,]*,/, ''), 'base64'))).toBe(true);
    });

    it('not an image by its bytes: 400, and nothing is registered', async () => {
      const verified = await verifyContact(t, { phone: freshPhone() });
      for (const data of [
        Buffer.from('GIF89a not allowed').toString('base64'),
        'not base64 at all!',
        `data:image/png;base64,${Buffer.from('hello').toString('base64')}`,
      ]) {
        const res = await post(t, 'register', { role: 'passenger', profile_picture_base64: data }, verified.access_token);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe('profile_picture_base64 must be a base64-encoded PNG, JPEG or WebP image');
      }
      expect(await t.db.query(`SELECT is_registered FROM users WHERE id = $1`, [verified.user.id])).toEqual([{ is_registered: false }]);
    });

    it('over PROFILE_PICTURE_MAX_BYTES: 413', async () => {
      const verified = await verifyContact(t, { phone: freshPhone() });
      const big = Buffer.concat([Buffer.from(PNG_1X1, 'base64'), Buffer.alloc(4096)]).toString('base64');
      const res = await post(t, 'register', { role: 'passenger', profile_picture_base64: big }, verified.access_token);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    });

    it('only generated file names are served: traversal and unknown names get 404', async () => {
      for (const url of [
        '/uploads/..%2F..%2Fpackage.json',
        '/uploads/../package.json',
        '/uploads/%2e%2e%2fpackage.json',
        `/uploads/${'0'.repeat(32)}.png`,
        '/uploads/x.txt',
      ]) {
        const res = await t.request({ method: 'GET', url });
        expect(res.statusCode).toBe(404);
      }
    });
  });
});

describe('register with DRIVER_AUTO_APPROVE=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startAuthApp({ DRIVER_AUTO_APPROVE: 'true' });
  });
  afterAll(() => t.close());

  it('approves the driver record at registration', async () => {
    const signed = await signUp(t, { role: 'driver' });
    expect(await t.db.query(`SELECT status FROM drivers WHERE user_id = $1`, [signed.user.id])).toEqual([{ status: 'approved' }]);
  });
});
