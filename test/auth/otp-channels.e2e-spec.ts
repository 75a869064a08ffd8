import { captureLog } from '../support/captured-log';
import { FakeTwilio, startFakeTwilio } from '../support/fake-twilio';
import { closedPort } from '../support/smtp-test-server';
import { startTestApp, TestApp } from '../support/test-app';
import { freshEmail, freshPhone, post } from './auth-helpers';

/** Sign-in codes for a contact kind no channel serves (CONTRACT §10); the channels themselves: otp-delivery.e2e-spec.ts. */

const MAIL_FROM = 'Testo Rides <no-reply@rides.test>';
const UNAVAILABLE = { statusCode: 503, error: 'Service Unavailable', message: 'Could not send the code. Please try again' };
/** Every app of this file logs here (Nest's logger is process-wide). */
const log = captureLog('trace');

describe('a contact kind without a channel', () => {
  let twilio: FakeTwilio;
  let smsOnly: TestApp;
  let mailOnly: TestApp;
  let development: TestApp;

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    const sms = {
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: twilio.from,
      TWILIO_API_BASE: twilio.url,
    };
    smsOnly = await startTestApp({ logger: log.logger, env: { NODE_ENV: 'production', ...sms } });
    // Nothing listens on this SMTP port: every e-mail is refused at the connection.
    mailOnly = await startTestApp({ logger: log.logger, env: { NODE_ENV: 'production', SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`, MAIL_FROM } });
    development = await startTestApp({ logger: log.logger, env: { NODE_ENV: 'development', ...sms } });
  });
  afterAll(async () => {
    await smsOnly?.close();
    await mailOnly?.close();
    await development?.close();
    await twilio?.close();
  });

  it('in production is 400 "Email sign-in is not available" / "Phone sign-in is not available", before any user is created', async () => {
    const email = freshEmail();
    const noMail = await post(smsOnly, 'send-otp', { email });
    expect(noMail.statusCode).toBe(400);
    expect(noMail.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Email sign-in is not available' });
    expect(await smsOnly.db.query('SELECT 1 FROM users WHERE email = $1', [email])).toHaveLength(0);

    const phone = freshPhone();
    const noSms = await post(mailOnly, 'send-otp', { phone });
    expect(noSms.statusCode).toBe(400);
    expect(noSms.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Phone sign-in is not available' });
    expect(await mailOnly.db.query('SELECT 1 FROM users WHERE phone = $1', [phone])).toHaveLength(0);
  });

  it('in production, with a phone and an e-mail, goes to the kind that has a channel', async () => {
    const phone = freshPhone();
    const res = await post(smsOnly, 'send-otp', { phone, email: freshEmail() });
    expect(res.statusCode).toBe(200);
    expect(twilio.delivered().some((m) => m.to === phone)).toBe(true);
  });

  it('a refused SMTP connection is a 503 after one retry', async () => {
    const res = await post(mailOnly, 'send-otp', { email: freshEmail() });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual(UNAVAILABLE);
    expect(res.headers['retry-after']).toBe('5');
  });

  it('outside production is written to the log instead (and the configured channel still delivers the other kind)', async () => {
    const email = freshEmail();
    expect((await post(development, 'send-otp', { email })).statusCode).toBe(200);
    const line = log.lines().find((entry) => entry.to === email && typeof entry.otp === 'string')!;
    expect(line.msg).toBe(`OTP for ${email}: ${line.otp}`);
    const verified = await post(development, 'verify-otp', { email, otp: line.otp });
    expect(verified.statusCode).toBe(200);

    const phone = freshPhone();
    expect((await post(development, 'send-otp', { phone })).statusCode).toBe(200);
    expect(twilio.delivered().some((m) => m.to === phone)).toBe(true);
    expect(log.lines().some((entry) => entry.to === phone)).toBe(false);
  });
});
