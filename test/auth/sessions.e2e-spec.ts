import { createUser } from '../support/factories';
import { TestApp } from '../support/test-app';
import { decodeJwt, DEV_CODE, freshEmail, freshPhone, post, signUp, startAuthApp, verifyContact } from './auth-helpers';
import { b64, craftJwt, me, nextSecond } from './session-helpers';

describe('sessions: login, refresh-token, logout, tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A 2 s auth-state lifetime: one test edits a row behind the service's back and waits it out.
    t = await startAuthApp({ LOGIN_OTP_WINDOW_MINUTES: '10', USER_STATE_CACHE_MS: '2000' });
  });
  afterAll(() => t.close());

  describe('POST /api/v1/auth/login', () => {
    it('registered → login with the bearer of a fresh verify-otp: last_login_at, login_count+1, device token, new pair, no-store; CONTRACT 3 shape', async () => {
      const email = freshEmail();
      const signed = await signUp(t, { email });
      const proof = await verifyContact(t, { phone: signed.phone });
      const res = await post(t, 'login', { email, push_token: 'device-7' }, proof.access_token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type', 'user']);
      expect(body.user).toMatchObject({ id: signed.user.id, email });
      const [row] = await t.db.query(`SELECT login_count, last_login_at, device_token, otp_verified_at, login_proof_hash FROM users WHERE id = $1`, [
        signed.user.id,
      ]);
      expect(row).toMatchObject({ login_count: 1, device_token: 'device-7', otp_verified_at: null, login_proof_hash: null });
      expect(Date.now() - new Date(row.last_login_at).getTime()).toBeLessThan(60_000);
      expect((await me(t, body.access_token)).statusCode).toBe(200);
      // Login replaced the refresh token.
      expect((await post(t, 'refresh-token', { refresh_token: signed.refresh_token })).json().message).toBe('Invalid refresh token');
      expect((await post(t, 'refresh-token', { refresh_token: body.refresh_token })).statusCode).toBe(200);
    });

    it('knowing the phone number during the window is not enough: without the bearer of that verify-otp, 403', async () => {
      const signed = await signUp(t);
      const other = await signUp(t);
      await nextSecond();
      const proof = await verifyContact(t, { phone: signed.phone });
      const otherProof = await verifyContact(t, { phone: other.phone });
      const now = Math.floor(Date.now() / 1000);
      const claims = { sub: String(signed.user.id), role: 'passenger', type: 'access', iat: now - 60, exp: now + 600 };
      const refreshed = (await post(t, 'refresh-token', { refresh_token: signed.refresh_token })).json().access_token as string;
      const attempts: Array<[string, string | undefined]> = [
        ['no bearer', undefined],
        ['the registration session token', signed.access_token],
        ['another user’s verify-otp token', otherProof.access_token],
        ['a valid access token of this user, issued earlier (as by an earlier verify-otp)', craftJwt(claims)],
        ['the proof token re-signed with another secret', craftJwt(decodeJwt(proof.access_token).claims, 'another-secret-that-is-long-enough-123456')],
        ['the proof token without a signature', proof.access_token.split('.').slice(0, 2).join('.') + '.'],
        ['garbage', 'not-a-jwt'],
      ];
      if (refreshed !== proof.access_token) attempts.push(['an access token from refresh-token', refreshed]);
      for (const [label, token] of attempts) {
        const res = await post(t, 'login', { phone: signed.phone }, token);
        expect([label, res.statusCode, res.json()]).toEqual([label, 403, { statusCode: 403, error: 'Forbidden', message: 'Verify OTP before logging in' }]);
      }
      // A malformed Authorization header is the same refusal, not a 401 of the guard (login is public).
      const basic = await t.request({ method: 'POST', url: '/api/v1/auth/login', payload: { phone: signed.phone }, headers: { authorization: 'Basic eDp5' } });
      expect(basic.statusCode).toBe(403);
      // None of those used the proof up.
      expect((await post(t, 'login', { phone: signed.phone }, proof.access_token)).statusCode).toBe(200);
    });

    it('the bearer of an earlier verify-otp does not pass once a newer one replaced it', async () => {
      const signed = await signUp(t);
      const earlier = await verifyContact(t, { phone: signed.phone });
      await nextSecond();
      const later = await verifyContact(t, { phone: signed.phone });
      expect(later.access_token).not.toBe(earlier.access_token);
      const refused = await post(t, 'login', { phone: signed.phone }, earlier.access_token);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('Verify OTP before logging in');
      expect((await post(t, 'login', { phone: signed.phone }, later.access_token)).statusCode).toBe(200);
    });

    it('logout ends the proof with the session', async () => {
      const signed = await signUp(t);
      const proof = await verifyContact(t, { phone: signed.phone });
      expect((await post(t, 'logout', undefined, proof.access_token)).statusCode).toBe(200);
      const res = await post(t, 'login', { phone: signed.phone }, proof.access_token);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Verify OTP before logging in');
    });

    it('one verify-otp proves one login: the second needs a new verify-otp', async () => {
      const signed = await signUp(t);
      const proof = await verifyContact(t, { phone: signed.phone });
      expect((await post(t, 'login', { phone: signed.phone }, proof.access_token)).statusCode).toBe(200);
      const again = await post(t, 'login', { phone: signed.phone }, proof.access_token);
      expect(again.statusCode).toBe(403);
      expect(again.json().message).toBe('Verify OTP before logging in');
      const next = await verifyContact(t, { phone: signed.phone });
      expect((await post(t, 'login', { phone: signed.phone }, next.access_token)).statusCode).toBe(200);
      expect(await t.db.query(`SELECT login_count FROM users WHERE id = $1`, [signed.user.id])).toEqual([{ login_count: 2 }]);
    });

    it('concurrent logins with one proof: exactly one succeeds', async () => {
      const signed = await signUp(t);
      const proof = await verifyContact(t, { phone: signed.phone });
      const results = await Promise.all(Array.from({ length: 5 }, () => post(t, 'login', { phone: signed.phone }, proof.access_token)));
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 403).every((r) => r.json().message === 'Verify OTP before logging in')).toBe(true);
    });

    it('a verification older than LOGIN_OTP_WINDOW_MINUTES does not count', async () => {
      const signed = await signUp(t);
      const proof = await verifyContact(t, { phone: signed.phone });
      await t.db.query(`UPDATE users SET otp_verified_at = now() - interval '11 minutes' WHERE id = $1`, [signed.user.id]);
      const res = await post(t, 'login', { phone: signed.phone }, proof.access_token);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Verify OTP before logging in');
    });

    it('no proof at all (a bare phone number is not enough): 403 Verify OTP before logging in', async () => {
      const user = await createUser(t);
      const res = await post(t, 'login', { phone: user.phone }, user.accessToken);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Verify OTP before logging in');
    });

    it('no user: 401 Invalid credentials, before the proof; the comparison is exact (no normalisation)', async () => {
      const signed = await signUp(t, { email: freshEmail() });
      const proof = await verifyContact(t, { phone: signed.phone });
      for (const body of [{ phone: freshPhone() }, { email: freshEmail() }, { phone: signed.phone.slice(1) }, {}]) {
        for (const token of [proof.access_token, undefined]) {
          const res = await post(t, 'login', body, token);
          expect(res.statusCode).toBe(401);
          expect(res.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Invalid credentials' });
        }
      }
    });

    it('checks in order: no user, the proof (verified), then not active, then blocked', async () => {
      const signed = await signUp(t, { email: freshEmail() });
      const proof = await verifyContact(t, { phone: signed.phone });
      await t.db.query(`UPDATE users SET is_verified = false, is_active = false, is_blocked = true WHERE id = $1`, [signed.user.id]);
      const call = (token?: string) => post(t, 'login', { phone: signed.phone }, token);
      expect((await call(proof.access_token)).json().message).toBe('Verify OTP before logging in');
      await t.db.query(`UPDATE users SET is_verified = true WHERE id = $1`, [signed.user.id]);
      // An inactive, blocked account without the proof is still told to verify first.
      expect((await call()).json().message).toBe('Verify OTP before logging in');
      const inactive = await call(proof.access_token);
      expect(inactive.statusCode).toBe(403);
      expect(inactive.json().message).toBe('Account is not active');
      await t.db.query(`UPDATE users SET is_active = true WHERE id = $1`, [signed.user.id]);
      const blocked = await call(proof.access_token);
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json().message).toBe('Account is blocked');
      // The refusals did not use the proof up.
      await t.db.query(`UPDATE users SET is_blocked = false WHERE id = $1`, [signed.user.id]);
      expect((await call(proof.access_token)).statusCode).toBe(200);
    });
  });

  describe('Cache-Control: no-store on every response that carries tokens', () => {
    it('verify-otp, register, refresh-token (login above)', async () => {
      const phone = freshPhone();
      await post(t, 'send-otp', { phone });
      const verified = await post(t, 'verify-otp', { phone, otp: DEV_CODE });
      expect([verified.statusCode, verified.headers['cache-control']]).toEqual([200, 'no-store']);
      const registered = await post(t, 'register', { role: 'passenger', first_name: 'Ada' }, verified.json().access_token);
      expect([registered.statusCode, registered.headers['cache-control']]).toEqual([200, 'no-store']);
      const refreshed = await post(t, 'refresh-token', { refresh_token: registered.json().refresh_token });
      expect([refreshed.statusCode, refreshed.headers['cache-control']]).toEqual([200, 'no-store']);
      // Responses without tokens keep the default.
      expect((await me(t, refreshed.json().access_token)).headers['cache-control']).toBeUndefined();
    });
  });

  describe('POST /api/v1/auth/refresh-token', () => {
    it('registered → refresh: a new pair; the old refresh token stops working (superseded)', async () => {
      const user = await createUser(t);
      const res = await post(t, 'refresh-token', { refresh_token: user.refreshToken });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
      expect(body).toMatchObject({ token_type: 'bearer', expires_in: 900 });
      expect(body.refresh_token).not.toBe(user.refreshToken);
      expect((await me(t, body.access_token)).statusCode).toBe(200);
      const superseded = await post(t, 'refresh-token', { refresh_token: user.refreshToken });
      expect(superseded.statusCode).toBe(401);
      expect(superseded.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Invalid refresh token' });
      expect((await post(t, 'refresh-token', { refresh_token: body.refresh_token })).statusCode).toBe(200);
    });

    it('two simultaneous refreshes with one token yield exactly one new pair, which the replay then revokes', async () => {
      const signed = await signUp(t);
      const results = await Promise.all(Array.from({ length: 6 }, () => post(t, 'refresh-token', { refresh_token: signed.refresh_token })));
      const ok = results.filter((r) => r.statusCode === 200);
      expect(ok).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 401).every((r) => r.json().message === 'Invalid refresh token')).toBe(true);
      // The losers presented an already rotated token of the session (see session-revocation.e2e-spec.ts).
      expect((await post(t, 'refresh-token', { refresh_token: ok[0]!.json().refresh_token })).statusCode).toBe(401);
    });

    it('inactive or blocked user: 403 Account is not active', async () => {
      for (const column of ['is_active = false', 'is_blocked = true']) {
        const user = await createUser(t);
        await t.db.query(`UPDATE users SET ${column} WHERE id = $1`, [user.id]);
        const res = await post(t, 'refresh-token', { refresh_token: user.refreshToken });
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe('Account is not active');
      }
    });

    it('garbage, an access token, another secret, an expired token, alg none: 401 Invalid refresh token', async () => {
      const user = await createUser(t);
      const now = Math.floor(Date.now() / 1000);
      const claims = { sub: String(user.id), type: 'refresh', jti: 'x', iat: now, exp: now + 3600 };
      const tokens = [
        'not-a-jwt',
        user.accessToken,
        craftJwt(claims, 'another-secret-that-is-long-enough-123456'),
        craftJwt({ ...claims, iat: now - 7200, exp: now - 3600 }),
        `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
        craftJwt({ ...claims, sub: '0' }),
        // Well signed and of the right type, but not the stored token.
        craftJwt(claims),
      ];
      for (const refresh_token of tokens) {
        const res = await post(t, 'refresh-token', { refresh_token });
        expect(res.statusCode).toBe(401);
        expect(res.json().message).toBe('Invalid refresh token');
      }
      // The real one still works: failed attempts do not revoke it.
      expect((await post(t, 'refresh-token', { refresh_token: user.refreshToken })).statusCode).toBe(200);
    });

    it('a missing refresh_token: 400', async () => {
      expect((await post(t, 'refresh-token', {})).statusCode).toBe(400);
    });
  });
});
