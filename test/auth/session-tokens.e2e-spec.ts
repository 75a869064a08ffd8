import { createUser } from '../support/factories';
import { TEST_JWT_SECRET, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { decodeJwt, freshPhone, post, signUp, startAuthApp, verifyContact } from './auth-helpers';
import { b64, craftJwt, me } from './session-helpers';

/** Access tokens and logout (sessions.e2e-spec.ts: login and refresh-token). */

describe('sessions: access tokens and logout', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A 2 s auth-state lifetime: one test edits a row behind the service's back and waits it out.
    t = await startAuthApp({ LOGIN_OTP_WINDOW_MINUTES: '10', USER_STATE_CACHE_MS: '2000' });
  });
  afterAll(() => t.close());

  describe('access tokens', () => {
    it('claims: access has exactly sub, role, type, iat, exp; refresh exactly sub, type, jti, fam, iat, exp; HS256; lifetimes from config', async () => {
      const signed = await signUp(t, { role: 'driver' });
      const access = decodeJwt(signed.access_token);
      const refresh = decodeJwt(signed.refresh_token);
      expect(access.header).toEqual({ alg: 'HS256', typ: 'JWT' });
      expect(Object.keys(access.claims).sort()).toEqual(['exp', 'iat', 'role', 'sub', 'type']);
      expect(access.claims).toMatchObject({ sub: String(signed.user.id), role: 'driver', type: 'access' });
      expect((access.claims.exp as number) - (access.claims.iat as number)).toBe(15 * 60);
      expect(Object.keys(refresh.claims).sort()).toEqual(['exp', 'fam', 'iat', 'jti', 'sub', 'type']);
      expect(refresh.claims).toMatchObject({ sub: String(signed.user.id), type: 'refresh' });
      expect((refresh.claims.exp as number) - (refresh.claims.iat as number)).toBe(30 * 24 * 3600);
      const second = await post(t, 'refresh-token', { refresh_token: signed.refresh_token });
      expect(decodeJwt(second.json().refresh_token).claims.jti).not.toBe(refresh.claims.jti);
      expect(decodeJwt(second.json().refresh_token).claims.fam).toBe(refresh.claims.fam);
    });

    it('no exp, expired, other secret, alg none, refresh-as-access, missing header: 401', async () => {
      const user = await createUser(t);
      const now = Math.floor(Date.now() / 1000);
      const claims = { sub: String(user.id), role: 'passenger', type: 'access', iat: now, exp: now + 600 };
      expect((await me(t, craftJwt(claims))).statusCode).toBe(200);
      const { exp: _exp, ...withoutExp } = claims;
      for (const token of [
        // No exp: jsonwebtoken would take it as never expiring (CONTRACT §3: a 401).
        craftJwt(withoutExp),
        craftJwt({ ...claims, iat: now - 7200, exp: now - 3600 }),
        craftJwt(claims, 'another-secret-that-is-long-enough-123456'),
        `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
        craftJwt(claims, TEST_JWT_SECRET, { alg: 'HS512', typ: 'JWT' }),
        user.refreshToken,
      ]) {
        const res = await me(t, token);
        expect(res.statusCode).toBe(401);
      }
      expect((await t.request({ method: 'GET', url: '/api/v1/auth/me' })).statusCode).toBe(401);
    });

    it('a blocked user’s access token stops working at once', async () => {
      const user = await createUser(t);
      expect((await me(t, user.accessToken)).statusCode).toBe(200);
      await t.db.query(`UPDATE users SET is_blocked = true WHERE id = $1`, [user.id]);
      // A row edited behind the service's back (no event) shows once USER_STATE_CACHE_MS (2 s here) has passed.
      await waitFor('the cached state to expire', async () => (await me(t, user.accessToken)).statusCode !== 200, 5000);
      expect((await me(t, user.accessToken)).statusCode).toBe(403);
    });
  });

  describe('POST /api/v1/auth/logout', () => {
    it('any → logout: clears the refresh token and device token; the refresh token stops working', async () => {
      const user = await createUser(t);
      await t.db.query(`UPDATE users SET device_token = 'device-1' WHERE id = $1`, [user.id]);
      const res = await post(t, 'logout', undefined, user.accessToken);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Logged out' });
      expect(await t.db.query(`SELECT refresh_token_hash, device_token FROM users WHERE id = $1`, [user.id])).toEqual([
        { refresh_token_hash: null, device_token: null },
      ]);
      expect((await post(t, 'refresh-token', { refresh_token: user.refreshToken })).json().message).toBe('Invalid refresh token');
    });

    it('logout of a pending (unregistered) user works too; without a token it is 401', async () => {
      const verified = await verifyContact(t, { phone: freshPhone() });
      expect((await post(t, 'logout', undefined, verified.access_token)).statusCode).toBe(200);
      expect((await post(t, 'logout')).statusCode).toBe(401);
    });
  });
});
