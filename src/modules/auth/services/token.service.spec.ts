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
    expect(Object.keys(decode(pair.refresh_token)).sort()).toEqual(['exp', 'fam', 'iat', 'jti', 'sub', 'type']);
  });

  it('a new session starts a refresh-token family; rotation keeps it, with a new jti', () => {
    const tokens = new TokenService(new JwtService(jwtModuleOptions(config)), config);
    const first = tokens.issue({ id: 7, role: 'passenger' });
    const second = tokens.issue({ id: 7, role: 'passenger' });
    expect(first.family).not.toBe(second.family);
    expect(tokens.verifyRefresh(first.pair.refresh_token)).toEqual({ userId: 7, family: first.family });
    const rotated = tokens.issueRefresh(7, first.family);
    expect(tokens.verifyRefresh(rotated.token)).toEqual({ userId: 7, family: first.family });
    expect(rotated.hash).toBe(TokenService.hash(rotated.token));
    expect(rotated.hash).not.toBe(first.refreshTokenHash);
  });

  it('answers a token verified before from memory, until it expires', () => {
    const tokens = new TokenService(new JwtService(jwtModuleOptions(config)), config);
    const start = Date.now();
    const access = tokens.issueAccess({ id: 42, role: 'driver' });
    const iat = Math.floor(start / 1000);
    expect([iat, iat + 1]).toContain(tokens.verifyAccess(access).iat);
    const verified = tokens.verifyAccess(access);
    expect(verified).toEqual({ userId: 42, role: 'driver', iat: verified.iat });
    expect(tokens.verifyAccess(access)).toEqual(verified);

    jest.spyOn(Date, 'now').mockReturnValue(start + 15 * 60 * 1000 + 1000);
    expect(() => tokens.verifyAccess(access)).toThrow(AuthError);
  });

  it('never remembers a refused token', () => {
    const tokens = new TokenService(new JwtService(jwtModuleOptions(config)), config);
    const access = tokens.issueAccess({ id: 42, role: 'passenger' });
    const forged = `${access.slice(0, -4)}AAAA`;
    expect(() => tokens.verifyAccess(forged)).toThrow(AuthError);
    expect(() => tokens.verifyAccess(forged)).toThrow(AuthError);
    const refresh = tokens.issueRefresh(42, 'fam-1').token;
    expect(() => tokens.verifyAccess(refresh)).toThrow(AuthError);
    expect(tokens.verifyRefresh(refresh)).toEqual({ userId: 42, family: 'fam-1' });
  });
});
