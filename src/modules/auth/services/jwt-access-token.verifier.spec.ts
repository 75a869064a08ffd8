import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../../../config/app-config';
import type { UserAuthState } from '../../users/users.service';
import type { UsersService } from '../../users/users.service';
import { AuthError } from '../auth.errors';
import { JwtAccessTokenVerifier } from './jwt-access-token.verifier';
import { jwtModuleOptions, TokenService } from './token.service';

/** verifyNow (the HTTP guard's) must answer exactly as verify (the WebSocket's), with or without a promise. */
describe('JwtAccessTokenVerifier.verifyNow', () => {
  const config = AppConfig.fromEnv({ JWT_SECRET: 'unit-secret-unit-secret-unit-secret-0123' });
  const tokens = new TokenService(new JwtService(jwtModuleOptions(config)), config);

  function verifierWith(state: UserAuthState | undefined, cached: boolean): JwtAccessTokenVerifier {
    const users = {
      peekAuthState: () => (cached ? { state } : undefined),
      getAuthState: () => Promise.resolve(state),
    } as unknown as UsersService;
    return new JwtAccessTokenVerifier(tokens, users);
  }

  const active: UserAuthState = { id: 5, role: 'driver', isActive: true, isBlocked: false, isRegistered: true, tokensValidAfter: 0 };
  const nextSecond = Math.floor(Date.now() / 1000) + 1;
  const cases: Array<[string, UserAuthState | undefined]> = [
    ['active', active],
    ['missing', undefined],
    ['blocked', { ...active, isBlocked: true }],
    ['inactive', { ...active, isActive: false }],
    ['revoked after the token was issued', { ...active, tokensValidAfter: nextSecond + 5 }],
    ['blocked and revoked', { ...active, isBlocked: true, tokensValidAfter: nextSecond + 5 }],
  ];

  it.each(cases)('%s user: the cached answer is synchronous and equals verify()', async (_label, state) => {
    const token = tokens.issueAccess({ id: 5, role: 'driver' });
    const expected = await verifierWith(state, false).verify(token).then(
      (user) => ({ user }),
      (err: AuthError) => ({ code: err.code }),
    );
    let now: unknown;
    try {
      now = verifierWith(state, true).verifyNow(token);
      expect(now).not.toBeInstanceOf(Promise);
      now = { user: now };
    } catch (err) {
      now = { code: (err as AuthError).code };
    }
    expect(now).toEqual(expected);
    const uncached = await Promise.resolve(verifierWith(state, false).verifyNow(token)).then(
      (user) => ({ user }),
      (err: AuthError) => ({ code: err.code }),
    );
    expect(uncached).toEqual(expected);
  });

  it('the session cut-off: a token issued before it is refused (401), one issued in its second or later is accepted', () => {
    const token = tokens.issueAccess({ id: 5, role: 'driver' });
    const iat = Math.floor(Date.now() / 1000);
    expect(() => verifierWith({ ...active, tokensValidAfter: iat + 1 }, true).verifyNow(token)).toThrow(
      expect.objectContaining({ code: 'INVALID_ACCESS_TOKEN' }),
    );
    expect(verifierWith({ ...active, tokensValidAfter: iat }, true).verifyNow(token)).toEqual({ id: 5, role: 'driver', isRegistered: true });
    expect(verifierWith({ ...active, tokensValidAfter: iat - 1 }, true).verifyNow(token)).toEqual({ id: 5, role: 'driver', isRegistered: true });
  });

  it('refuses a bad token before looking at the user', () => {
    expect(() => verifierWith(active, true).verifyNow('not.a.token')).toThrow(AuthError);
  });
});
