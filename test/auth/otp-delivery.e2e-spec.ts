import { captureLog } from '../support/captured-log';
import { FakeTwilio, startFakeTwilio } from '../support/fake-twilio';
import { SmtpTestServer, startSmtpTestServer } from '../support/smtp-test-server';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { freshEmail, freshPhone, post } from './auth-helpers';

const APP_NAME = 'Testo Rides';
const MAIL_FROM = 'Testo Rides <no-reply@rides.test>';
const UNAVAILABLE = { statusCode: 503, error: 'Service Unavailable', message: 'Could not send the code. Please try again' };

/** Every app of this file logs here (Nest's logger is process-wide), at trace level. */
const log = captureLog('trace');
/** Every code a channel was asked to deliver, to check that none reached the log. */
const codesSeen = new Set<string>();

function codeIn(text: string | null | undefined): string {
  const code = /\b(\d{6})\b/.exec(text ?? '')?.[1];
  if (!code) throw new Error(`no code in ${JSON.stringify(text)}`);
  codesSeen.add(code);
  return code;
}

async function userRow(t: TestApp, column: 'phone' | 'email', value: string): Promise<{ id: number; otp_code_hash: string | null }> {
  const rows = (await t.db.query(`SELECT id, otp_code_hash FROM users WHERE ${column} = $1`, [value])) as Array<{ id: number; otp_code_hash: string | null }>;
  return rows[0]!;
}

async function signIn(t: TestApp, contact: { phone?: string; email?: string }, otp: string): Promise<number> {
  const verified = await post(t, 'verify-otp', { ...contact, otp });
  expect(verified.statusCode).toBe(200);
  const registered = await post(t, 'register', { role: 'passenger', first_name: 'Grace', last_name: 'Hopper' }, verified.json().access_token);
  expect(registered.statusCode).toBe(200);
  return registered.statusCode;
}

describe('sign-in codes in production: e-mail over SMTP and SMS through Twilio (CONTRACT §10)', () => {
  let smtp: SmtpTestServer;
  let twilio: FakeTwilio;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpTestServer({ tls: 'none' });
    twilio = await startFakeTwilio();
    t = await startTestApp({
      logger: log.logger,
      env: {
        NODE_ENV: 'production',
        APP_NAME,
        SMTP_URL: smtp.url,
        MAIL_FROM,
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_FROM: twilio.from,
        TWILIO_API_BASE: twilio.url,
        // The contract's limits, so that a failed attempt that counted would show.
        OTP_RESEND_COOLDOWN_SECONDS: '30',
        OTP_MAX_PER_HOUR: '10',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await twilio?.close();
  });
  beforeEach(() => {
    smtp.script = [];
    smtp.outage = undefined;
    twilio.script = [];
    twilio.outage = undefined;
  });

  it('e-mails the code (plain text and HTML, the code in the subject, the product name) and signs the user in with it', async () => {
    const email = freshEmail();
    const arriving = smtp.next();
    const res = await post(t, 'send-otp', { email });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'OTP sent', expires_in: 300 });
    const mail = await arriving;
    const code = codeIn(mail.subject);
    expect(mail).toMatchObject({ from: { name: 'Testo Rides', address: 'no-reply@rides.test' }, to: [email], user: smtp.user, secure: false });
    expect(mail.subject).toBe(`${code} is your ${APP_NAME} sign-in code`);
    expect(mail.text).toContain(`Your ${APP_NAME} sign-in code is ${code}.`);
    expect(mail.text).toContain('expires in 5 minutes');
    expect(mail.html).toContain(`>${code}</p>`);
    expect(mail.html).toContain(APP_NAME);
    expect(res.body).not.toContain(code);
    await signIn(t, { email }, code);
  });

  it('texts the code through Twilio (form fields, basic auth, the account SID in the path) and signs the user in with it', async () => {
    const phone = freshPhone();
    const res = await post(t, 'send-otp', { phone });
    expect(res.statusCode).toBe(200);
    const sms = twilio.delivered().find((m) => m.to === phone)!;
    expect(sms).toMatchObject({ to: phone, from: twilio.from, status: 201 });
    const code = codeIn(sms.body);
    expect(sms.body).toBe(`${code} is your ${APP_NAME} sign-in code. It expires in 5 minutes. Never share it.`);
    await signIn(t, { phone }, code);
  });

  it('with a phone and an e-mail, sends the same code to both', async () => {
    const phone = freshPhone();
    const email = freshEmail();
    const arriving = smtp.next();
    expect((await post(t, 'send-otp', { phone, email })).statusCode).toBe(200);
    const mail = await arriving;
    // send-otp answers when the first channel took the code; the other may still be on its way.
    await until(() => twilio.delivered().some((m) => m.to === phone), 'the SMS');
    const sms = twilio.delivered().find((m) => m.to === phone)!;
    expect(codeIn(sms.body)).toBe(codeIn(mail.subject));
  });

  it('retries once: a Twilio 500 then a 201 is a success, and so is an SMTP 451 then a 250', async () => {
    const phone = freshPhone();
    twilio.script = [500];
    const before = twilio.requests.length;
    expect((await post(t, 'send-otp', { phone })).statusCode).toBe(200);
    expect(twilio.requests.slice(before).map((r) => r.status)).toEqual([500, 201]);

    const email = freshEmail();
    smtp.script = [451];
    const refusedBefore = smtp.refused;
    const arriving = smtp.next();
    expect((await post(t, 'send-otp', { email })).statusCode).toBe(200);
    expect(smtp.refused - refusedBefore).toBe(1);
    codeIn((await arriving).subject);
  });

  it('a provider outage is a 503 with Retry-After; the attempt counts towards no limit, its code is void, and a retry at once works', async () => {
    const phone = freshPhone();
    twilio.outage = 503;
    const before = twilio.requests.length;
    const failed = await post(t, 'send-otp', { phone });
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toEqual(UNAVAILABLE);
    expect(Number(failed.headers['retry-after'])).toBeGreaterThan(0);
    const attempts = twilio.requests.slice(before);
    expect(attempts).toHaveLength(2); // one retry
    const failedCode = codeIn(attempts[0]!.body);
    expect((await userRow(t, 'phone', phone)).otp_code_hash).toBeNull();

    twilio.outage = undefined;
    const retried = await post(t, 'send-otp', { phone }); // at once: no cooldown was spent
    expect(retried.statusCode).toBe(200);
    const code = codeIn(twilio.delivered().find((m) => m.to === phone)!.body);
    if (code !== failedCode) expect((await post(t, 'verify-otp', { phone, otp: failedCode })).json().message).toBe('Invalid OTP');
    // The successful send did count: the cooldown now holds.
    const again = await post(t, 'send-otp', { phone });
    expect(again.statusCode).toBe(429);
    await signIn(t, { phone }, code);
  });

  it('ten failed attempts in a row do not use up the hourly cap of ten', async () => {
    const email = freshEmail();
    smtp.outage = 421;
    for (let i = 0; i < 10; i += 1) expect((await post(t, 'send-otp', { email })).statusCode).toBe(503);
    smtp.outage = undefined;
    const arriving = smtp.next();
    expect((await post(t, 'send-otp', { email })).statusCode).toBe(200);
    await signIn(t, { email }, codeIn((await arriving).subject));
  }, 60_000);

  it('an SMTP 5xx is not retried and is a 503 when it was the only channel', async () => {
    const email = freshEmail();
    smtp.outage = 554;
    const before = smtp.refused;
    const res = await post(t, 'send-otp', { email });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual(UNAVAILABLE);
    expect(smtp.refused - before).toBe(1);
  });

  it('with a phone and an e-mail, one channel that delivers is enough', async () => {
    const phone = freshPhone();
    const email = freshEmail();
    twilio.outage = 500;
    const arriving = smtp.next();
    expect((await post(t, 'send-otp', { phone, email })).statusCode).toBe(200);
    await signIn(t, { phone, email }, codeIn((await arriving).subject));
    // The SMS channel went on trying in the background: its retry must not land in the next test.
    await until(() => twilio.requests.filter((r) => r.to === phone).length === 2, 'the SMS retry');
  });

  it.each([21211, 21614] as const)('Twilio refusing the number (%i) is 400 "Invalid phone number", not retried', async (twilioCode) => {
    const phone = freshPhone();
    twilio.refusedNumbers.set(phone, twilioCode);
    const before = twilio.requests.length;
    const res = await post(t, 'send-otp', { phone });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Invalid phone number' });
    expect(twilio.requests.length - before).toBe(1);
    codeIn(twilio.requests[before]!.body);
    expect((await userRow(t, 'phone', phone)).otp_code_hash).toBeNull();
  });

  it('a provider that does not answer is given up on within 5 s (one retry) and answered 503', async () => {
    const phone = freshPhone();
    twilio.outage = 'hang';
    const before = twilio.requests.length;
    const started = Date.now();
    const res = await post(t, 'send-otp', { phone });
    const elapsed = Date.now() - started;
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual(UNAVAILABLE);
    expect(twilio.requests.length - before).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(4900);
    expect(elapsed).toBeLessThan(15_000);
    codeIn(twilio.requests[before]!.body);
  });

  it('the request itself is checked as Twilio checks it: the fake refuses a wrong auth token', async () => {
    const res = await fetch(`${twilio.url}/2010-04-01/Accounts/${twilio.accountSid}/Messages.json`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${twilio.accountSid}:wrong`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ To: '+15005550009', From: twilio.from, Body: 'x' }).toString(),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 20003, status: 401 });
  });

  it('the OpenAPI document lists the new answers of send-otp', async () => {
    const document = (await t.request({ method: 'GET', url: '/docs-json' })).json();
    const responses = document.paths['/api/v1/auth/send-otp'].post.responses;
    const messages = (status: string) =>
      Object.values(responses[status].content['application/json'].examples as Record<string, { value: { message: string } }>).map((e) => e.value.message);
    expect(messages('503')).toEqual([UNAVAILABLE.message]);
    expect(responses['503'].headers['Retry-After']).toBeDefined();
    expect(messages('400')).toEqual(expect.arrayContaining(['Phone sign-in is not available', 'Email sign-in is not available', 'Invalid phone number']));
  });

  it('never writes a code to the log, at any level, sent or failed', () => {
    expect(codesSeen.size).toBeGreaterThan(5);
    const text = log.text();
    expect(text).toContain('Could not deliver a sign-in code');
    // A code next to other hex digits is part of a request id or a timestamp, not a code.
    for (const code of codesSeen) expect(text).not.toMatch(new RegExp(`(?<![0-9a-fA-F])${code}(?![0-9a-fA-F])`));
  });
});
