import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../../../config/app-config';
import type { UserAuthState } from '../../users/users.service';
import type { UsersService } from '../../users/users.service';
import { AuthError } from '../auth.errors';
import { JwtAccessTokenVerifier } from './jwt-access-token.verifier';
import { jwtModuleOptions, TokenService } from './token.service';

/** verify (the HTTP guard's and the WebSocket's) answers the same from the cached user state as from a load. */
describe('JwtAccessTokenVerifier.verify', () => {
  const config = AppConfig.fromEnv({ JWT_SECRET: 'unit-secret-unit-secret-unit-secret-0123' });
  const tokens = new TokenService(new JwtService(jwtModuleOptions(config)), config);

  function verifierWith(state: UserAuthState | undefined, cached: boolean): JwtAccessTokenVerifier {
    const users = {
      peekAuthState: () => (cached ? { state } : undefined),
      getAuthState: () => Promise.resolve(state),
    } as unknown as UsersService;
    return new JwtAccessTokenVerifier(tokens, users);
  }

  const outcome = (verifying: Promise<unknown>) =>
    verifying.then(
      (user) => ({ user }),
      (err: AuthError) => ({ code: err.code }),
    );

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

  it.each(cases)('%s user: the cached answer equals the loaded one (a refusal rejects either way)', async (_label, state) => {
    const token = tokens.issueAccess({ id: 5, role: 'driver' });
    const loaded = await outcome(verifierWith(state, false).verify(token));
    expect(await outcome(verifierWith(state, true).verify(token))).toEqual(loaded);
  });

  it('the session cut-off: a token issued before it is refused (401), one issued in its second or later is accepted', async () => {
    const token = tokens.issueAccess({ id: 5, role: 'driver' });
    const iat = Math.floor(Date.now() / 1000);
    await expect(verifierWith({ ...active, tokensValidAfter: iat + 1 }, true).verify(token)).rejects.toMatchObject({ code: 'INVALID_ACCESS_TOKEN' });
    await expect(verifierWith({ ...active, tokensValidAfter: iat }, true).verify(token)).resolves.toEqual({ id: 5, role: 'driver', isRegistered: true });
    await expect(verifierWith({ ...active, tokensValidAfter: iat - 1 }, true).verify(token)).resolves.toEqual({ id: 5, role: 'driver', isRegistered: true });
  });

  it('refuses a bad token before looking at the user (a rejection, not a throw)', async () => {
    const verifying = verifierWith(active, true).verify('not.a.token');
    await expect(verifying).rejects.toBeInstanceOf(AuthError);
  });
});
