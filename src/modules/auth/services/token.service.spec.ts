import { AppConfig } from '../../../config/app-config';
import { AuthError } from '../auth.errors';
import { JwtService } from '@nestjs/jwt';
import { jwtModuleOptions, TokenService } from './token.service';

describe('TokenService access-token verification', () => {
  const config = AppConfig.fromEnv({ JWT_SECRET: 'unit-secret-unit-secret-unit-secret-0123', JWT_ACCESS_TTL_MINUTES: '15' });
  afterEach(() => jest.restoreAllMocks());

  it('issues HS256 tokens with exactly the contract claims', () => {
    const tokens = new TokenService(new JwtService(jwtModuleOptions(config)), config);
    const { pair } = tokens.issue({ id: 7, role: 'passenger' });
    const decode = (t: string) => JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString('utf8'));
    expect(JSON.parse(Buffer.from(pair.access_token.split('.')[0]!, 'base64url').toString('utf8'))).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(Object.keys(decode(pair.access_token)).sort()).toEqual(['exp', 'iat', 'role', 'sub', 'type']);
    expect(Object.keys(decode(pair.refresh_token)).sort()).toEqual(['exp', 'iat', 'jti', 'sub', 'type']);
  });

  it('answers a token verified before from memory, until it expires', () => {
    const tokens = new TokenService(new JwtService(jwtModuleOptions(config)), config);
    const start = Date.now();
    const access = tokens.issueAccess({ id: 42, role: 'driver' });
    expect(tokens.verifyAccess(access)).toEqual({ userId: 42, role: 'driver' });
    expect(tokens.verifyAccess(access)).toEqual({ userId: 42, role: 'driver' });

    jest.spyOn(Date, 'now').mockReturnValue(start + 15 * 60 * 1000 + 1000);
    expect(() => tokens.verifyAccess(access)).toThrow(AuthError);
  });

  it('never remembers a refused token', () => {
    const tokens = new TokenService(new JwtService(jwtModuleOptions(config)), config);
    const access = tokens.issueAccess({ id: 42, role: 'passenger' });
    const forged = `${access.slice(0, -4)}AAAA`;
    expect(() => tokens.verifyAccess(forged)).toThrow(AuthError);
    expect(() => tokens.verifyAccess(forged)).toThrow(AuthError);
    const refresh = tokens.issueRefresh(42).token;
    expect(() => tokens.verifyAccess(refresh)).toThrow(AuthError);
    expect(tokens.verifyRefresh(refresh)).toEqual({ userId: 42 });
  });
});
