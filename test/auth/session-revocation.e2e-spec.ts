import type { LightMyRequestResponse } from 'fastify';
import { UsersService } from '../../src/modules/users/users.service';
import { describeWithRedis, startRedis, TestRedis } from '../support/redis';
import { TestApp } from '../support/test-app';
import { eventsCrossed } from '../realtime/live-client';
import { decodeJwt, post, Session, signUp, startAuthApp, verifyContact } from './auth-helpers';

const INVALID_REFRESH = { statusCode: 401, error: 'Unauthorized', message: 'Invalid refresh token' };

function me(t: TestApp, token: string): Promise<LightMyRequestResponse> {
  return t.request({ method: 'GET', url: '/api/v1/auth/me', token });
}

async function refresh(t: TestApp, refreshToken: string): Promise<{ access_token: string; refresh_token: string }> {
  const res = await post(t, 'refresh-token', { refresh_token: refreshToken });
  if (res.statusCode !== 200) throw new Error(`refresh failed: ${res.body}`);
  return res.json();
}

/** verify-otp + login: a new session (a new refresh-token family). */
async function login(t: TestApp, phone: string): Promise<Session> {
  const verified = await verifyContact(t, { phone });
  const res = await post(t, 'login', { phone }, verified.access_token);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return res.json();
}

async function sessionColumns(t: TestApp, userId: number) {
  const [row] = await t.db.query(
    `SELECT refresh_token_hash, refresh_token_family::text AS family, extract(epoch FROM tokens_valid_after)::float8 AS valid_after
       FROM users WHERE id = $1`,
    [userId],
  );
  return row as { refresh_token_hash: string | null; family: string | null; valid_after: number | null };
}

describe('session revocation: refresh-token replay, logout, deletion (RFC 9700 4.14.2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A 5 s auth-state cache: every "at once" below is this instance forgetting the cached state, not its expiry.
    t = await startAuthApp({ USER_STATE_CACHE_MS: '5000', LOGIN_OTP_WINDOW_MINUTES: '10' });
  });
  afterAll(() => t.close());

  it('a normal rotation chain of 5 refreshes works; every token keeps the family stored for the session', async () => {
    const signed = await signUp(t);
    const family = decodeJwt(signed.refresh_token).claims.fam;
    expect(typeof family).toBe('string');
    let current = { access_token: signed.access_token, refresh_token: signed.refresh_token };
    for (let i = 0; i < 5; i += 1) {
      current = await refresh(t, current.refresh_token);
      expect(decodeJwt(current.refresh_token).claims.fam).toBe(family);
      expect((await me(t, current.access_token)).statusCode).toBe(200);
    }
    expect(await sessionColumns(t, signed.user.id)).toMatchObject({ family, valid_after: null });
    // Access tokens of the same session issued earlier stay valid until they expire.
    expect((await me(t, signed.access_token)).statusCode).toBe(200);
  });

  it('replaying a rotated refresh token revokes the session: current refresh and access tokens 401 at once; a new login works', async () => {
    const signed = await signUp(t);
    const first = await refresh(t, signed.refresh_token);
    const latest = await refresh(t, first.refresh_token);
    expect((await me(t, latest.access_token)).statusCode).toBe(200); // now cached for 5 s

    const replay = await post(t, 'refresh-token', { refresh_token: signed.refresh_token });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual(INVALID_REFRESH);

    const current = await post(t, 'refresh-token', { refresh_token: latest.refresh_token });
    expect(current.statusCode).toBe(401);
    expect(current.json()).toEqual(INVALID_REFRESH);
    const access = await me(t, latest.access_token);
    expect(access.statusCode).toBe(401);
    expect(access.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Invalid or expired access token' });
    expect((await me(t, first.access_token)).statusCode).toBe(401);
    expect(await sessionColumns(t, signed.user.id)).toMatchObject({ refresh_token_hash: null, family: null });

    // A new login opens a new family; the replayed token of the old one no longer touches it.
    const fresh = await login(t, signed.phone);
    expect((await me(t, fresh.access_token)).statusCode).toBe(200);
    expect((await post(t, 'refresh-token', { refresh_token: signed.refresh_token })).json()).toEqual(INVALID_REFRESH);
    const next = await refresh(t, fresh.refresh_token);
    expect((await me(t, next.access_token)).statusCode).toBe(200);
    expect((await me(t, fresh.access_token)).statusCode).toBe(200);
  });

  it('a stale token of an earlier login (another family) is only refused: the newer session goes on', async () => {
    const signed = await signUp(t);
    const fresh = await login(t, signed.phone);
    const stale = await post(t, 'refresh-token', { refresh_token: signed.refresh_token });
    expect(stale.json()).toEqual(INVALID_REFRESH);
    expect((await me(t, fresh.access_token)).statusCode).toBe(200);
    const next = await refresh(t, fresh.refresh_token);
    expect((await me(t, next.access_token)).statusCode).toBe(200);
    expect((await sessionColumns(t, signed.user.id)).valid_after).toBeNull();
  });

  it('two concurrent refreshes with one token: one 200 and one 401, and the session is revoked (the loser is a replay)', async () => {
    const signed = await signUp(t);
    const results = await Promise.all([0, 1].map(() => post(t, 'refresh-token', { refresh_token: signed.refresh_token })));
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode === 401);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.json()).toEqual(INVALID_REFRESH);
    // Documented choice: a client must not refresh in parallel; the winner's pair is dead too.
    const winner = ok[0]!.json();
    expect((await post(t, 'refresh-token', { refresh_token: winner.refresh_token })).json()).toEqual(INVALID_REFRESH);
    expect((await me(t, winner.access_token)).statusCode).toBe(401);
    const fresh = await login(t, signed.phone);
    expect((await me(t, fresh.access_token)).statusCode).toBe(200);
  });

  it('logout: the access tokens of the session are refused at once, also one issued in the same second; a login right after works', async () => {
    const signed = await signUp(t);
    const latest = await refresh(t, signed.refresh_token);
    expect((await me(t, latest.access_token)).statusCode).toBe(200); // cached for 5 s
    const before = Date.now();
    const res = await post(t, 'logout', undefined, latest.access_token);
    expect(res.statusCode).toBe(200);
    // Logout answers once the cut-off second has begun, so a token signed after it is never in the cut-off second.
    expect(Date.now()).toBeGreaterThanOrEqual((Math.floor(before / 1000) + 1) * 1000);
    expect((await me(t, latest.access_token)).statusCode).toBe(401);
    expect((await me(t, signed.access_token)).statusCode).toBe(401);
    expect((await post(t, 'refresh-token', { refresh_token: latest.refresh_token })).json()).toEqual(INVALID_REFRESH);
    const columns = await sessionColumns(t, signed.user.id);
    expect(columns).toMatchObject({ refresh_token_hash: null, family: null });
    expect(columns.valid_after).toBeGreaterThan(decodeJwt(latest.access_token).claims.iat as number);

    // No wait: the new session's tokens work immediately.
    const verified = await verifyContact(t, { phone: signed.phone });
    expect((await me(t, verified.access_token)).statusCode).toBe(200);
    const fresh = await post(t, 'login', { phone: signed.phone }, verified.access_token);
    expect(fresh.statusCode).toBe(200);
    expect((await me(t, fresh.json().access_token)).statusCode).toBe(200);
    expect((await post(t, 'refresh-token', { refresh_token: fresh.json().refresh_token })).statusCode).toBe(200);
  });

  it('account deletion: the access token is refused at once', async () => {
    const signed = await signUp(t);
    expect((await me(t, signed.access_token)).statusCode).toBe(200); // cached for 5 s
    const res = await t.request({ method: 'DELETE', url: '/api/v1/auth/account', token: signed.access_token });
    expect(res.statusCode).toBe(200);
    expect((await me(t, signed.access_token)).statusCode).toBe(401);
    expect((await post(t, 'refresh-token', { refresh_token: signed.refresh_token })).json()).toEqual(INVALID_REFRESH);
  });

  it('blocking drops the refresh family too; a replay while blocked revokes nothing and unblocking restores access (cli.e2e-spec)', async () => {
    const signed = await signUp(t);
    const latest = await refresh(t, signed.refresh_token);
    await t.get(UsersService).setBlocked(signed.user.id, true, { actorId: null, reason: 'in a test' });
    expect(await sessionColumns(t, signed.user.id)).toMatchObject({ refresh_token_hash: null, family: null });
    expect((await post(t, 'refresh-token', { refresh_token: signed.refresh_token })).json()).toEqual(INVALID_REFRESH);
    await t.get(UsersService).setBlocked(signed.user.id, false, { actorId: null, reason: 'in a test' });
    expect((await sessionColumns(t, signed.user.id)).valid_after).toBeNull();
    expect((await me(t, latest.access_token)).statusCode).toBe(200);
  });
});

describeWithRedis('session revocation across instances (event bus over Redis)', () => {
  let redis: TestRedis;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    redis = await startRedis();
    a = await startAuthApp({ REDIS_URL: redis.url, USER_STATE_CACHE_MS: '5000' });
    b = await startAuthApp({ REDIS_URL: redis.url, USER_STATE_CACHE_MS: '5000' }, { databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  /** B's answer once the revocation event published on A has been dispatched on B. */
  async function statusOnB(token: string): Promise<number> {
    await eventsCrossed([a, b]);
    return (await me(b, token)).statusCode;
  }

  it("a logout on one instance ends the other instance's cached auth state", async () => {
    const signed = await signUp(a);
    expect((await me(b, signed.access_token)).statusCode).toBe(200);
    expect((await post(a, 'logout', undefined, signed.access_token)).statusCode).toBe(200);
    // At once, not after the 5 s the cache would otherwise hold the old state.
    expect(await statusOnB(signed.access_token)).toBe(401);
  });

  it('a replay on one instance revokes the access token on the other', async () => {
    const signed = await signUp(a);
    const latest = await refresh(a, signed.refresh_token);
    expect((await me(b, latest.access_token)).statusCode).toBe(200);
    expect((await post(a, 'refresh-token', { refresh_token: signed.refresh_token })).json()).toEqual(INVALID_REFRESH);
    expect(await statusOnB(latest.access_token)).toBe(401);
  });
});
