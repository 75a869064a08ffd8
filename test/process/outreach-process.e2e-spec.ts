import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { BUILT_MAIN, ensureFreshBuild } from '../support/build';
import { FakeFcm, startFakeFcm } from '../support/fake-fcm';
import { FakeTwilio, startFakeTwilio } from '../support/fake-twilio';
import { bookingBody, PICKUP } from '../rides/ride-helpers';
import { SmtpTestServer, startSmtpTestServer } from '../support/smtp-test-server';
import { createTestDatabase } from '../support/test-database';
import { until } from '../support/until';
import { freshEmail, freshPhone } from '../auth/auth-helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startService } = require('../../sim/lib/service') as { startService: (env: NodeJS.ProcessEnv, logPath: string) => Promise<Service> };

interface Service {
  base: string;
  ready(seconds?: number): Promise<void>;
  stop(): Promise<void>;
}

const JWT_SECRET = 'production-process-secret-of-32-bytes-or-more';

/**
 * The built server as a real production process (NODE_ENV=production) against real SMTP servers
 * speaking TLS and the Twilio fake: the certificate is self-signed, generated here, and trusted
 * only through NODE_EXTRA_CA_CERTS (what an operator does for a private CA); the production code
 * verifies certificates as always. The process logs at trace level to a file that is read back.
 */
describe('a production process delivers sign-in codes over TLS and never logs them', () => {
  let dir: string;
  let caFile: string;
  let key: string;
  let cert: string;
  let twilio: FakeTwilio;
  let fcm: FakeFcm;
  let database: { url: string };
  const running: Service[] = [];
  const codes = new Set<string>();

  beforeAll(async () => {
    ensureFreshBuild();
    dir = mkdtempSync(join(tmpdir(), 'otp-process-'));
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    });
    key = pems.private;
    cert = pems.cert;
    caFile = join(dir, 'test-ca.pem');
    writeFileSync(caFile, cert);
    twilio = await startFakeTwilio();
    fcm = await startFakeFcm(dir);
    database = await createTestDatabase();
  }, 120_000);
  afterAll(async () => {
    for (const service of running) await service.stop();
    await twilio?.close();
    await fcm?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(name: string, extra: Record<string, string>): Promise<{ service: Service; log: () => string }> {
    const logPath = join(dir, `${name}.log`);
    const service = await startService(
      {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        LOG_LEVEL: 'trace',
        JWT_SECRET,
        DATABASE_URL: database.url,
        RUN_MIGRATIONS: 'false',
        AUTH_RATE_LIMIT_PER_IP_PER_MINUTE: '0',
        MAIL_FROM: 'Rides <no-reply@rides.test>',
        ...extra,
      },
      logPath,
    );
    running.push(service);
    await service.ready(60);
    return { service, log: () => readFileSync(logPath, 'utf8') };
  }

  async function api(
    service: Service,
    method: string,
    path: string,
    body?: object,
    token?: string,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await fetch(`${service.base}/api/v1/${path}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  const call = (service: Service, path: string, body: object, token?: string) => api(service, 'POST', `auth/${path}`, body, token);

  /** verify-otp with the delivered code, then register; returns register's access token. */
  async function signIn(service: Service, contact: object, otp: string, extra: object = {}): Promise<string> {
    const verified = await call(service, 'verify-otp', { ...contact, otp });
    expect(verified.status).toBe(200);
    const registered = await call(
      service,
      'register',
      { role: 'passenger', first_name: 'Ada', last_name: 'Lovelace', ...extra },
      verified.json.access_token as string,
    );
    expect(registered.status).toBe(200);
    return registered.json.access_token as string;
  }

  function codeIn(text: string | null): string {
    const code = /\b(\d{6})\b/.exec(text ?? '')![1]!;
    codes.add(code);
    return code;
  }

  function expectNoCodeIn(log: string): void {
    expect(log).toContain('"level":20'); // debug lines (the access log) were written: the check below reads a full log
    for (const code of codes) expect(log).not.toMatch(new RegExp(`(?<![0-9a-fA-F])${code}(?![0-9a-fA-F])`));
  }

  it('smtp:// upgrades with STARTTLS; e-mail and SMS codes sign users in, ride events reach their backgrounded apps by push; the trace-level log holds no code', async () => {
    const smtp: SmtpTestServer = await startSmtpTestServer({ tls: 'starttls', key, cert });
    try {
      const { service, log } = await start('starttls', {
        SMTP_URL: smtp.url,
        NODE_EXTRA_CA_CERTS: caFile,
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_FROM: twilio.from,
        TWILIO_API_BASE: twilio.url,
        FCM_SERVICE_ACCOUNT_FILE: fcm.serviceAccountFile,
        FCM_API_BASE: fcm.url,
        DRIVER_AUTO_APPROVE: 'true',
        METRICS_TOKEN: 'process-metrics-token',
      });
      const email = freshEmail();
      const arriving = smtp.next();
      expect((await call(service, 'send-otp', { email })).status).toBe(200);
      const mail = await arriving;
      expect(mail.secure).toBe(true);
      expect(mail.user).toBe(smtp.user);
      const passenger = await signIn(service, { email }, codeIn(mail.subject), { push_token: 'fcm-prod-passenger' });

      const phone = freshPhone();
      expect((await call(service, 'send-otp', { phone })).status).toBe(200);
      const driver = await signIn(service, { phone }, codeIn(twilio.delivered().find((m) => m.to === phone)!.body), {
        role: 'driver',
        push_token: 'fcm-prod-driver',
      });

      // Both apps are in the background (no socket): the ride reaches them by push.
      expect((await api(service, 'PUT', 'driver/status', { is_online: true }, driver)).status).toBe(200);
      const near = { latitude: PICKUP.latitude + 0.001, longitude: PICKUP.longitude };
      expect((await api(service, 'PUT', 'driver/location', near, driver)).status).toBe(200);
      const booked = await api(service, 'POST', 'rides/book', bookingBody(), passenger);
      expect(booked.status).toBe(201);
      const rideId = booked.json.id as string;
      const pushed = (token: string, type: string) => fcm.delivered.find((m) => m.token === token && JSON.stringify(m.body).includes(`"type":"${type}"`));
      await until(() => pushed('fcm-prod-driver', 'ride_requested') !== undefined, 'the ride_requested push');
      expect((pushed('fcm-prod-driver', 'ride_requested')!.body.message as Record<string, unknown>).data).toEqual({ type: 'ride_requested', ride_id: rideId });
      expect((await api(service, 'POST', `driver/rides/${rideId}/bid`, { amount: 9.5, eta_minutes: 4 }, driver)).status).toBe(201);
      await until(() => pushed('fcm-prod-passenger', 'bid_submitted') !== undefined, 'the bid_submitted push');
      expect(fcm.tokenRequests.every((r) => r.granted)).toBe(true);

      twilio.outage = 503;
      const failed = await call(service, 'send-otp', { phone: freshPhone() });
      twilio.outage = undefined;
      expect(failed).toEqual({ status: 503, json: { statusCode: 503, error: 'Service Unavailable', message: 'Could not send the code. Please try again' } });
      codeIn(twilio.requests[twilio.requests.length - 1]!.body);

      const metrics = await fetch(`${service.base}/metrics`, { headers: { authorization: 'Bearer process-metrics-token' } });
      const text = await metrics.text();
      expect(text).toMatch(/^otp_sent_total\{channel="email:smtp"\} 1$/m);
      expect(text).toMatch(/^otp_sent_total\{channel="sms:twilio"\} 1$/m);
      expect(text).toMatch(/^otp_failed_total\{channel="sms:twilio",reason="unavailable"\} 1$/m);
      expect(text).toMatch(/^push_sent_total\{type="ride_requested"\} 1$/m);
      expect(text).toMatch(/^push_sent_total\{type="bid_submitted"\} 1$/m);

      await service.stop();
      expectNoCodeIn(log());
    } finally {
      await smtp.close();
    }
  }, 120_000);

  it('smtps:// speaks TLS from the first byte', async () => {
    const smtp = await startSmtpTestServer({ tls: 'implicit', key, cert });
    try {
      const { service, log } = await start('smtps', { SMTP_URL: smtp.url, NODE_EXTRA_CA_CERTS: caFile });
      const email = freshEmail();
      const arriving = smtp.next();
      expect((await call(service, 'send-otp', { email })).status).toBe(200);
      const mail = await arriving;
      expect(mail.secure).toBe(true);
      await signIn(service, { email }, codeIn(mail.subject));
      await service.stop();
      expectNoCodeIn(log());
    } finally {
      await smtp.close();
    }
  }, 120_000);

  it('a certificate the process does not trust is refused: 503, nothing sent', async () => {
    const smtp = await startSmtpTestServer({ tls: 'implicit', key, cert });
    try {
      const { service, log } = await start('untrusted', { SMTP_URL: smtp.url });
      const res = await call(service, 'send-otp', { email: freshEmail() });
      expect(res.status).toBe(503);
      expect(smtp.mails).toHaveLength(0);
      await service.stop();
      const failure = log()
        .split('\n')
        .find((line) => line.includes('Could not deliver a sign-in code'));
      expect(failure).toMatch(/self-signed certificate/);
    } finally {
      await smtp.close();
    }
  }, 120_000);

  it('refuses to start without a sign-in channel, naming the settings', async () => {
    const child = spawn(process.execPath, [BUILT_MAIN], {
      cwd: dir,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', JWT_SECRET, DATABASE_URL: database.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration: SMTP_URL or SMS_PROVIDER must be set when NODE_ENV=production');
  }, 30_000);
});
