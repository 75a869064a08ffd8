import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../../../config/app-config';
import type { UserAuthState } from '../../users/users.repository';
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

  const active: UserAuthState = { id: 5, role: 'driver', isActive: true, isBlocked: false, isRegistered: true };
  const cases: Array<[string, UserAuthState | undefined]> = [
    ['active', active],
    ['missing', undefined],
    ['blocked', { ...active, isBlocked: true }],
    ['inactive', { ...active, isActive: false }],
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

  it('refuses a bad token before looking at the user', () => {
    expect(() => verifierWith(active, true).verifyNow('not.a.token')).toThrow(AuthError);
  });
});
