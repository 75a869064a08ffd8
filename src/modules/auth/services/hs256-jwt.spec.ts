import { createSecretKey } from 'node:crypto';
import jsonwebtoken from 'jsonwebtoken';
import { Hs256Jwt } from './hs256-jwt';

const key = createSecretKey(Buffer.from('unit-secret-unit-secret-unit-secret-0123', 'utf8'));
const otherKey = createSecretKey(Buffer.from('another-secret-another-secret-another-1', 'utf8'));
const jwt = new Hs256Jwt(key);
const now = Math.floor(Date.now() / 1000);

function jsonwebtokenAccepts(token: string): boolean {
  try {
    jsonwebtoken.verify(token, key, { algorithms: ['HS256'] });
    return true;
  } catch {
    return false;
  }
}

describe('Hs256Jwt', () => {
  const claims = { sub: '42', role: 'driver', type: 'access', iat: now, exp: now + 900 };

  it('signs byte for byte as jsonwebtoken does', () => {
    expect(jwt.sign(claims)).toBe(jsonwebtoken.sign(claims, key, { algorithm: 'HS256' }));
    const refresh = { sub: '7', type: 'refresh', jti: 'a6f1c2c4-5a0e-4f7e-9a7e-0d6d2b6d1c11', iat: now, exp: now + 86400 };
    expect(jwt.sign(refresh)).toBe(jsonwebtoken.sign(refresh, key, { algorithm: 'HS256' }));
  });

  it('verifies its own and jsonwebtoken tokens, returning the claims', () => {
    expect(jwt.verify(jwt.sign(claims))).toEqual(claims);
    expect(jwt.verify(jsonwebtoken.sign(claims, key, { algorithm: 'HS256' }))).toEqual(claims);
  });

  const payload = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const header = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = jwt.sign(claims);
  const [h, p, s] = signed.split('.') as [string, string, string];

  const cases: Array<[string, string]> = [
    ['expired', jwt.sign({ ...claims, iat: now - 1000, exp: now - 1 })],
    ['expiring this second', jwt.sign({ ...claims, exp: now })],
    ['not yet valid', jwt.sign({ ...claims, nbf: now + 60 })],
    ['string exp', jwt.sign({ ...claims, exp: String(now + 900) })],
    ['string nbf', jwt.sign({ ...claims, nbf: String(now) })],
    ['another key', jsonwebtoken.sign(claims, otherKey, { algorithm: 'HS256' })],
    ['HS512', jsonwebtoken.sign(claims, key, { algorithm: 'HS512' })],
    ['alg none', `${header({ alg: 'none', typ: 'JWT' })}.${p}.`],
    ['no signature', `${h}.${p}.`],
    ['tampered payload', `${h}.${payload({ ...claims, sub: '43' })}.${s}`],
    ['tampered signature', `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`],
    ['padded signature', `${h}.${p}.${s}=`],
    ['two segments', `${h}.${p}`],
    ['four segments', `${signed}.${s}`],
    ['empty', ''],
    ['garbage', 'not-a-token'],
  ];

  it.each(cases)('refuses a token that jsonwebtoken refuses: %s', (_label, token) => {
    expect(jsonwebtokenAccepts(token)).toBe(false);
    expect(jwt.verify(token)).toBeUndefined();
  });

  it('refuses a payload that is not a JSON object (it has no claims; TokenService would refuse it anyway)', () => {
    expect(jwt.verify(jwt.sign([1, 2, 3]))).toBeUndefined();
  });

  it('accepts what jsonwebtoken accepts: a header with extra fields, no exp, a past nbf', () => {
    const extraHeader = jsonwebtoken.sign(claims, key, { algorithm: 'HS256', keyid: 'k1' });
    const noExp = jsonwebtoken.sign({ sub: '42', type: 'access', iat: now }, key, { algorithm: 'HS256' });
    const pastNbf = jwt.sign({ ...claims, nbf: now - 5 });
    for (const token of [extraHeader, noExp, pastNbf]) {
      expect(jsonwebtokenAccepts(token)).toBe(true);
      expect(jwt.verify(token)).toBeDefined();
    }
  });
});
