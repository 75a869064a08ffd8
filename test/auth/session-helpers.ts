import { createHmac } from 'node:crypto';
import { TEST_JWT_SECRET, TestApp } from '../support/test-app';

export function b64(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** An HS256 JWT signed here, to craft tokens the service must refuse. */
export function craftJwt(claims: object, secret = TEST_JWT_SECRET, header: object = { alg: 'HS256', typ: 'JWT' }): string {
  const unsigned = `${b64(header)}.${b64(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/**
 * Access tokens carry the spec's claims only (no jti), in whole seconds: two tokens of one user
 * issued within one second are the same string. Tests that need a different token wait for the clock.
 */
export async function nextSecond(): Promise<void> {
  const second = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) === second) await new Promise((resolve) => setTimeout(resolve, 5));
}

export function me(t: TestApp, token: string) {
  return t.request({ method: 'GET', url: '/api/v1/auth/me', token });
}
