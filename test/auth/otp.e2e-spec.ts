import { createUser } from '../support/factories';
import { TestApp } from '../support/test-app';
import { DEV_CODE, freshEmail, freshPhone, post, signUp, startAuthApp, verifyContact } from './auth-helpers';

const MISMATCH = 'Phone and email do not match one account. Use the same phone and email as at login, or send only one of them.';
const NO_PENDING = 'No pending signup for this phone. Call send-otp first with the same number in international format.';

async function userRow(t: TestApp, where: string, params: unknown[]): Promise<Record<string, unknown> | undefined> {
  const rows = await t.db.query(`SELECT * FROM users WHERE ${where}`, params);
  return rows[0];
}

describe('send-otp and verify-otp (fixed development code)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startAuthApp();
  });
  afterAll(() => t.close());

  describe('life cycle', () => {
    it('(none) → pending: send-otp creates a passenger with no names, a hashed code and a 5-minute expiry; the code is never returned', async () => {
      const phone = freshPhone();
      const res = await post(t, 'send-otp', { phone });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'OTP sent', expires_in: 300 });
      expect(res.body).not.toContain(DEV_CODE);
      const row = (await userRow(t, 'phone = $1', [phone]))!;
      expect(row).toMatchObject({ role: 'passenger', first_name: null, last_name: null, is_verified: false, is_registered: false });
      expect(row.otp_code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.otp_code_hash).not.toContain(DEV_CODE);
      const seconds = (new Date(row.otp_expires_at as Date).getTime() - Date.now()) / 1000;
      expect(seconds).toBeGreaterThan(290);
      expect(seconds).toBeLessThanOrEqual(301);
    });

    it('pending or existing → send-otp again stores a new expiry and resets the failed-attempt count, creating no second user', async () => {
      const phone = freshPhone();
      await post(t, 'send-otp', { phone });
      await t.db.query(`UPDATE users SET otp_expires_at = now() + interval '10 seconds', otp_failed_attempts = 3 WHERE phone = $1`, [phone]);
      expect((await post(t, 'send-otp', { phone })).statusCode).toBe(200);
      const rows = await t.db.query(`SELECT * FROM users WHERE phone = $1`, [phone]);
      expect(rows).toHaveLength(1);
      expect(rows[0].otp_failed_attempts).toBe(0);
      expect(new Date(rows[0].otp_expires_at).getTime() - Date.now()).toBeGreaterThan(290_000);
    });

    it('pending, unverified → verified: verify-otp clears the code, sets the flags and returns a session with is_registered false', async () => {
      const phone = freshPhone();
      await post(t, 'send-otp', { phone });
      const res = await post(t, 'verify-otp', { phone, otp: ` ${DEV_CODE} ` });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'is_registered', 'refresh_token', 'token_type', 'user']);
      expect(body).toMatchObject({ token_type: 'bearer', expires_in: 900, is_registered: false });
      expect(Object.keys(body.user).sort()).toEqual(
        [
          'created_at',
          'email',
          'first_name',
          'id',
          'is_active',
          'is_blocked',
          'is_email_verified',
          'is_phone_verified',
          'is_verified',
          'last_name',
          'phone',
          'profile_picture',
          'role',
        ].sort(),
      );
      expect(body.user).toMatchObject({ phone, email: null, role: 'passenger', is_verified: true, is_phone_verified: true, is_email_verified: false });
      const row = (await userRow(t, 'phone = $1', [phone]))!;
      expect(row).toMatchObject({ otp_code_hash: null, otp_expires_at: null, is_verified: true });
      expect(row.otp_verified_at).not.toBeNull();
      expect(row.refresh_token_hash).toMatch(/^[0-9a-f]{64}$/);
      // The code was used up.
      expect((await post(t, 'verify-otp', { phone, otp: DEV_CODE })).json().message).toBe('Invalid OTP');
    });

    it('verify-otp with an e-mail sets is_email_verified; a registered user gets is_registered true', async () => {
      const email = freshEmail();
      const signed = await signUp(t, { email });
      const again = await verifyContact(t, { email: email.toUpperCase() });
      expect(again.is_registered).toBe(true);
      expect(again.user).toMatchObject({ id: signed.user.id, is_email_verified: true, is_phone_verified: true });
    });
  });

  describe('identity rules 1 and 2', () => {
    it.each([
      ['no fields', {}],
      ['blank phone only', { phone: '   ' }],
      ['blank both', { phone: '', email: ' ' }],
      ['nulls', { phone: null, email: null }],
    ])('%s: 400 Either email or phone is required (send-otp and verify-otp)', async (_name, body) => {
      for (const [url, payload] of [
        ['send-otp', body],
        ['verify-otp', { ...body, otp: '1' }],
      ] as const) {
        const res = await post(t, url, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Either email or phone is required' });
      }
    });

    it('a blank phone beside an e-mail: 400 Phone is required', async () => {
      const res = await post(t, 'send-otp', { phone: '  ', email: freshEmail() });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Phone is required');
    });

    it('a phone without digits: 400 Invalid phone number', async () => {
      for (const phone of ['abc', '+', '(--)']) {
        const res = await post(t, 'send-otp', { phone });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe('Invalid phone number');
      }
    });

    it('phones are stored as + and digits; e-mails trimmed and lower-cased', async () => {
      const digits = freshPhone().slice(1);
      const email = freshEmail();
      await post(t, 'send-otp', {
        phone: `${digits.slice(0, 1)} (${digits.slice(1, 4)}) ${digits.slice(4, 7)}-${digits.slice(7)}`,
        email: `  ${email.toUpperCase()} `,
      });
      const row = (await userRow(t, 'phone = $1', [`+${digits}`]))!;
      expect(row.email).toBe(email);
    });

    it('an e-mail that is not one: 400 with details', async () => {
      const res = await post(t, 'send-otp', { email: 'not-an-email' });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([{ field: 'email', message: 'email must be a valid e-mail address' }]);
    });

    it('unknown fields and a non-string otp are refused with 400', async () => {
      expect((await post(t, 'send-otp', { phone: freshPhone(), code: '1' })).statusCode).toBe(400);
      expect((await post(t, 'verify-otp', { phone: freshPhone(), otp: 123456 })).statusCode).toBe(400);
    });
  });

  describe('identity rules 3 to 8', () => {
    it('rule 3: the stored phone matches with or without the leading +', async () => {
      const phone = freshPhone();
      await post(t, 'send-otp', { phone: phone.slice(1) });
      const res = await post(t, 'verify-otp', { phone, otp: DEV_CODE });
      expect(res.statusCode).toBe(200);
      expect(res.json().user.phone).toBe(phone);
      await post(t, 'send-otp', { phone });
      expect((await post(t, 'verify-otp', { phone: phone.slice(1), otp: DEV_CODE })).statusCode).toBe(200);
      expect(await t.db.query(`SELECT id FROM users WHERE phone = $1`, [phone])).toHaveLength(1);
    });

    it('rule 3: e-mail case and spaces do not matter', async () => {
      const email = freshEmail();
      await post(t, 'send-otp', { email: ` ${email.toUpperCase()}` });
      const res = await post(t, 'verify-otp', { email: `${email}  `, otp: DEV_CODE });
      expect(res.statusCode).toBe(200);
      expect(res.json().user.email).toBe(email);
    });

    it('rule 4: both identifiers matching one user select it', async () => {
      const phone = freshPhone();
      const email = freshEmail();
      const signed = await signUp(t, { phone, email });
      const res = await verifyContact(t, { phone, email });
      expect(res.user.id).toBe(signed.user.id);
    });

    it('rule 5: phone and e-mail of two different users: 409 Phone and email belong to different accounts', async () => {
      const a = await createUser(t);
      const b = await createUser(t);
      const res = await post(t, 'send-otp', { phone: a.phone, email: b.email });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('Phone and email belong to different accounts');
      expect((await post(t, 'verify-otp', { phone: a.phone, email: b.email, otp: DEV_CODE })).statusCode).toBe(409);
    });

    it('rule 6: completed account, both supplied, not both matching: 409 with the advice', async () => {
      const a = await createUser(t);
      for (const payload of [
        { phone: a.phone, email: freshEmail() },
        { phone: freshPhone(), email: a.email },
      ]) {
        const res = await post(t, 'send-otp', payload);
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toBe(MISMATCH);
      }
      // Nothing was changed or created.
      expect(await t.db.query(`SELECT email FROM users WHERE id = $1`, [a.id])).toEqual([{ email: a.email }]);
    });

    it('rule 7: a pending account takes a missing e-mail, then refuses a different one', async () => {
      const phone = freshPhone();
      const email = freshEmail();
      await post(t, 'send-otp', { phone });
      expect((await post(t, 'send-otp', { phone, email })).statusCode).toBe(200);
      expect((await userRow(t, 'phone = $1', [phone]))!.email).toBe(email);
      const res = await post(t, 'send-otp', { phone, email: freshEmail() });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('This phone is already linked to another email address');
    });

    it('rule 7: a pending account takes a missing phone, then refuses a different one', async () => {
      const phone = freshPhone();
      const email = freshEmail();
      await post(t, 'send-otp', { email });
      expect((await post(t, 'send-otp', { phone, email })).statusCode).toBe(200);
      expect((await userRow(t, 'email = $1', [email]))!.phone).toBe(phone);
      const res = await post(t, 'send-otp', { phone: freshPhone(), email });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('This email is already linked to another phone number');
    });

    it('rule 7 at verify-otp: the fill-in is stored only when the code is right, and marks both contacts verified', async () => {
      const phone = freshPhone();
      const email = freshEmail();
      await post(t, 'send-otp', { phone });
      expect((await post(t, 'verify-otp', { phone, email, otp: '000000' })).statusCode).toBe(400);
      expect((await userRow(t, 'phone = $1', [phone]))!.email).toBeNull();
      const res = await post(t, 'verify-otp', { phone, email, otp: DEV_CODE });
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({ phone, email, is_phone_verified: true, is_email_verified: true });
    });

    it('rule 8: verify-otp never creates a user: 404 No pending signup…', async () => {
      const phone = freshPhone();
      const res = await post(t, 'verify-otp', { phone, otp: DEV_CODE });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: NO_PENDING });
      expect(await userRow(t, 'phone = $1', [phone])).toBeUndefined();
    });

    it('rule 8: two simultaneous send-otp for a new number create one user, and both succeed', async () => {
      const phone = freshPhone();
      const results = await Promise.all(Array.from({ length: 6 }, () => post(t, 'send-otp', { phone })));
      expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await t.db.query(`SELECT id FROM users WHERE phone = $1`, [phone])).toHaveLength(1);
    });
  });

  describe('verify-otp codes', () => {
    it('a wrong code: 400 Invalid OTP; an expired right code: 400 OTP expired (the code is checked first)', async () => {
      const phone = freshPhone();
      await post(t, 'send-otp', { phone });
      const wrong = await post(t, 'verify-otp', { phone, otp: '999999' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('Invalid OTP');
      await t.db.query(`UPDATE users SET otp_expires_at = now() - interval '1 second' WHERE phone = $1`, [phone]);
      expect((await post(t, 'verify-otp', { phone, otp: '999999' })).json().message).toBe('Invalid OTP');
      const expired = await post(t, 'verify-otp', { phone, otp: DEV_CODE });
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'OTP expired' });
    });

    it('no stored code (never sent or already used): 400 Invalid OTP', async () => {
      const user = await createUser(t);
      const res = await post(t, 'verify-otp', { phone: user.phone, otp: DEV_CODE });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Invalid OTP');
    });

    it('after 5 wrong codes the code is void: the sixth attempt fails even with the right code, until a new send-otp', async () => {
      const phone = freshPhone();
      await post(t, 'send-otp', { phone });
      for (let i = 0; i < 5; i += 1) {
        expect((await post(t, 'verify-otp', { phone, otp: `00000${i}` })).json().message).toBe('Invalid OTP');
      }
      const sixth = await post(t, 'verify-otp', { phone, otp: DEV_CODE });
      expect(sixth.statusCode).toBe(400);
      expect(sixth.json().message).toBe('Invalid OTP');
      await post(t, 'send-otp', { phone });
      expect((await post(t, 'verify-otp', { phone, otp: DEV_CODE })).statusCode).toBe(200);
    });

    it('concurrent wrong guesses are all counted: after them the right code fails', async () => {
      const phone = freshPhone();
      await post(t, 'send-otp', { phone });
      const guesses = await Promise.all(Array.from({ length: 8 }, (_, i) => post(t, 'verify-otp', { phone, otp: `11111${i}` })));
      expect(guesses.every((g) => g.statusCode === 400)).toBe(true);
      expect((await post(t, 'verify-otp', { phone, otp: DEV_CODE })).json().message).toBe('Invalid OTP');
    });

    it('a blocked account with the right code: 403 Account is blocked, no session', async () => {
      const user = await createUser(t);
      await t.db.query(`UPDATE users SET is_blocked = true WHERE id = $1`, [user.id]);
      await post(t, 'send-otp', { phone: user.phone });
      const res = await post(t, 'verify-otp', { phone: user.phone, otp: DEV_CODE });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Account is blocked');
    });
  });
});
