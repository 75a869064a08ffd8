import { AppConfig } from '../config/app-config';
import { signInHint } from './sign-in-hint';

const TWILIO = { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef', TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM: '+15005550006' };
const SMTP = { SMTP_URL: 'smtp://user:pass@mail.example.com:587' };
const hint = (env: Record<string, string>): string | undefined => signInHint(AppConfig.fromEnv(env));

describe('the start-up line on getting a sign-in code', () => {
  it('a plain npm start (development, no channel): send-otp, then the code in this log', () => {
    expect(hint({})).toBe(
      'Sign-in: POST /api/v1/auth/send-otp {"phone": "+15551234567"} (or the explorer at /docs); with no channel configured for phone and e-mail sign-in, ' +
        'the code is written to this log as "OTP for +15551234567: <code>" (OTP_DEV_FIXED_CODE=123456 with NODE_ENV=development makes every code 123456)',
    );
  });

  it('with OTP_DEV_FIXED_CODE: that code, for both calls', () => {
    expect(hint({ OTP_DEV_FIXED_CODE: '424242' })).toBe(
      'Sign-in: every code is 424242 (OTP_DEV_FIXED_CODE): POST /api/v1/auth/send-otp {"phone": "+15551234567"}, ' +
        'then POST /api/v1/auth/verify-otp {"phone": "+15551234567", "otp": "424242"} (or the same in the explorer at /docs)',
    );
  });

  it('names only the contact kind whose code is logged', () => {
    expect(hint(TWILIO)).toContain('"OTP for ada@example.com: <code>"');
    expect(hint(TWILIO)).toContain('for e-mail sign-in');
    expect(hint(SMTP)).toContain('"OTP for +15551234567: <code>"');
    expect(hint(SMTP)).toContain('for phone sign-in');
  });

  it('says nothing where codes only leave through channels: every kind configured, or production', () => {
    expect(hint({ ...TWILIO, ...SMTP })).toBeUndefined();
    expect(
      hint({ NODE_ENV: 'production', JWT_SECRET: 'a-secret-that-is-definitely-32-bytes-or-more', ...SMTP, MAIL_FROM: 'Rides <no-reply@example.com>' }),
    ).toBeUndefined();
  });
});
