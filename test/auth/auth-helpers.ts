import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, StartTestAppOptions, TestApp } from '../support/test-app';

export const DEV_CODE = '123456';

/** An app whose OTP is the fixed development code (NODE_ENV=development + OTP_DEV_FIXED_CODE). */
export function startAuthApp(env: Record<string, string | undefined> = {}, options: StartTestAppOptions = {}): Promise<TestApp> {
  return startTestApp({ ...options, env: { NODE_ENV: 'development', OTP_DEV_FIXED_CODE: DEV_CODE, ...env } });
}

let sequence = 0;

/** A phone number no other test in this process uses. */
export function freshPhone(): string {
  sequence += 1;
  return `+1444${String(process.pid % 1000).padStart(3, '0')}${String(sequence).padStart(4, '0')}`;
}

export function freshEmail(): string {
  sequence += 1;
  return `auth${process.pid}x${sequence}@example.test`;
}

export function post(t: TestApp, url: string, payload?: object, token?: string): Promise<LightMyRequestResponse> {
  return t.request({ method: 'POST', url: `/api/v1/auth/${url}`, payload, token });
}

export interface Session {
  access_token: string;
  refresh_token: string;
  user: { id: number; [key: string]: unknown };
  [key: string]: unknown;
}

/** send-otp + verify-otp with the development code; returns verify-otp's body. */
export async function verifyContact(t: TestApp, contact: { phone?: string; email?: string }): Promise<Session & { is_registered: boolean }> {
  const sent = await post(t, 'send-otp', contact);
  if (sent.statusCode !== 200) throw new Error(`send-otp failed: ${sent.body}`);
  const verified = await post(t, 'verify-otp', { ...contact, otp: DEV_CODE });
  if (verified.statusCode !== 200) throw new Error(`verify-otp failed: ${verified.body}`);
  return verified.json();
}

/** The whole sign-up: send-otp, verify-otp, register. */
export async function signUp(
  t: TestApp,
  options: { phone?: string; email?: string; role?: 'passenger' | 'driver'; extra?: object } = {},
): Promise<Session & { phone: string }> {
  const phone = options.phone ?? freshPhone();
  const contact = { phone, ...(options.email ? { email: options.email } : {}) };
  const verified = await verifyContact(t, contact);
  const res = await post(
    t,
    'register',
    { role: options.role ?? 'passenger', first_name: 'Ada', last_name: 'Lovelace', ...options.extra },
    verified.access_token,
  );
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.body}`);
  return { ...res.json(), phone };
}

export function decodeJwt(token: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [header, claims] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header!, 'base64url').toString('utf8')),
    claims: JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8')),
  };
}

/** 1x1 transparent PNG. */
export const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
