import type { AppConfig } from '../config/app-config';

const EXAMPLE = { phone: '+15551234567', email: 'ada@example.com' } as const;

/**
 * The start-up line that tells a developer how to get a sign-in code (the first thing anyone
 * needs), or undefined where codes only leave through real channels (production, or every kind
 * configured). Mirrors OtpDelivery: outside production a contact kind without a channel gets its
 * code in this log, and OTP_DEV_FIXED_CODE makes every code the same.
 */
export function signInHint(config: AppConfig): string | undefined {
  if (config.isProduction) return undefined;
  const fixed = config.otpDevFixedCode;
  if (fixed !== undefined) {
    return (
      `Sign-in: every code is ${fixed} (OTP_DEV_FIXED_CODE): POST /api/v1/auth/send-otp {"phone": "${EXAMPLE.phone}"}, ` +
      `then POST /api/v1/auth/verify-otp {"phone": "${EXAMPLE.phone}", "otp": "${fixed}"} (or the same in the explorer at /docs)`
    );
  }
  const logged = (['phone', 'email'] as const).filter((kind) => (kind === 'phone' ? !config.outreach.sms : !config.outreach.mail));
  const kind = logged[0];
  if (kind === undefined) return undefined;
  const names = logged.map((k) => (k === 'phone' ? 'phone' : 'e-mail')).join(' and ');
  return (
    `Sign-in: POST /api/v1/auth/send-otp {"${kind}": "${EXAMPLE[kind]}"} (or the explorer at /docs); with no channel configured for ${names} sign-in, ` +
    `the code is written to this log as "OTP for ${EXAMPLE[kind]}: <code>" (OTP_DEV_FIXED_CODE=123456 with NODE_ENV=development makes every code 123456)`
  );
}
