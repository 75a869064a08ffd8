import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, ConfigError } from './app-config';

const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 'a-secret-that-is-definitely-32-bytes-or-more' };
const TWILIO = { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef', TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM: '+15005550006' };

/** The ConfigError this environment stops the service with. */
function failure(env: Record<string, string>): ConfigError {
  let thrown: unknown;
  expect(() => AppConfig.fromEnv(env)).toThrow(ConfigError);
  try {
    AppConfig.fromEnv(env);
  } catch (err) {
    thrown = err;
  }
  return thrown as ConfigError;
}

describe('outreach settings (CONTRACT §10)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'outreach-config-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('defaults: product name Rides, no channel, no push, metrics off; Twilio and FCM API roots', () => {
    const config = AppConfig.fromEnv({});
    expect(config.outreach).toEqual({ appName: 'Rides', mail: undefined, sms: undefined, push: undefined });
    expect(config.metricsToken).toBeUndefined();
    expect(AppConfig.fromEnv(TWILIO).outreach.sms!.apiBase).toBe('https://api.twilio.com');
  });

  it('production refuses to start without a sign-in channel, naming the settings', () => {
    const err = failure(PRODUCTION);
    expect(err.variable).toBe('SMTP_URL');
    expect(err.message).toBe(
      'Invalid configuration: SMTP_URL or SMS_PROVIDER must be set when NODE_ENV=production: sign-in codes need at least one channel (e-mail or SMS)',
    );
    expect(AppConfig.fromEnv({ ...PRODUCTION, ...TWILIO }).outreach.sms).toMatchObject({ provider: 'twilio', from: '+15005550006' });
  });

  it('reads smtp:// (STARTTLS when offered) and smtps:// (implicit TLS) URLs with percent-encoded credentials', () => {
    const plain = AppConfig.fromEnv({ SMTP_URL: 'smtp://us%40r:p%3Ass@mail.example.com' }).outreach.mail;
    expect(plain).toEqual({ host: 'mail.example.com', port: 587, secure: false, user: 'us@r', pass: 'p:ss', from: 'Rides <no-reply@example.com>' });
    const tls = AppConfig.fromEnv({ SMTP_URL: 'smtps://mail.example.com:2465', MAIL_FROM: 'a@b.test', APP_NAME: 'Go' }).outreach.mail;
    expect(tls).toMatchObject({ port: 2465, secure: true, user: undefined, from: 'a@b.test' });
    expect(AppConfig.fromEnv({ SMTP_URL: 'smtps://mail.example.com' }).outreach.mail!.port).toBe(465);
  });

  it.each([
    [{ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://mail.example.com/path' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://mail.example.com?tls.rejectUnauthorized=false' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'not an address' }, 'MAIL_FROM'],
    [{ ...PRODUCTION, SMTP_URL: 'smtp://mail.example.com' }, 'MAIL_FROM'],
    [{ APP_NAME: 'Two\nlines' }, 'APP_NAME'],
    [{ SMS_PROVIDER: 'carrier-pigeon' }, 'SMS_PROVIDER'],
    [{ TWILIO_ACCOUNT_SID: 'AC1' }, 'SMS_PROVIDER'],
    [{ ...TWILIO, TWILIO_AUTH_TOKEN: '' }, 'TWILIO_AUTH_TOKEN'],
    [{ ...TWILIO, TWILIO_FROM: '' }, 'TWILIO_FROM'],
    [{ ...TWILIO, TWILIO_ACCOUNT_SID: 'AC/../x' }, 'TWILIO_ACCOUNT_SID'],
    [{ ...TWILIO, TWILIO_API_BASE: 'ftp://twilio.test' }, 'TWILIO_API_BASE'],
    [{ FCM_API_BASE: 'not a url' }, 'FCM_API_BASE'],
    [{ FCM_SERVICE_ACCOUNT_FILE: '/nonexistent/service-account.json' }, 'FCM_SERVICE_ACCOUNT_FILE'],
  ])('refuses %j, naming %s', (env, variable) => {
    expect(failure(env as Record<string, string>).variable).toBe(variable);
  });

  it('reads the FCM service account at start-up and refuses one without a usable key or field', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const account = {
      type: 'service_account',
      project_id: 'rides-test',
      client_email: 'push@rides-test.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      token_uri: 'https://oauth2.googleapis.com/token',
    };
    const write = (name: string, body: unknown): string => {
      const path = join(dir, name);
      writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
      return path;
    };
    const push = AppConfig.fromEnv({ FCM_SERVICE_ACCOUNT_FILE: write('good.json', account) }).outreach.push;
    expect(push).toEqual({
      apiBase: 'https://fcm.googleapis.com',
      serviceAccount: { projectId: 'rides-test', clientEmail: account.client_email, privateKeyPem: account.private_key, tokenUri: account.token_uri },
    });
    for (const [name, body, problem] of [
      ['not-json.json', '{', /readable Google service-account JSON/],
      ['no-email.json', { ...account, client_email: '' }, /has no "client_email"/],
      ['bad-key.json', { ...account, private_key: 'nope' }, /not a PEM private key/],
      [
        'ec-key.json',
        { ...account, private_key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
        /not an RSA key/,
      ],
      ['bad-uri.json', { ...account, token_uri: 'file:///etc/passwd' }, /token_uri/],
    ] as const) {
      const err = failure({ FCM_SERVICE_ACCOUNT_FILE: write(name, body) });
      expect(err.variable).toBe('FCM_SERVICE_ACCOUNT_FILE');
      expect(err.message).toMatch(problem);
      // The key itself never appears in the message.
      expect(err.message).not.toContain('PRIVATE KEY');
    }
  });

  it('reads METRICS_TOKEN', () => {
    expect(AppConfig.fromEnv({ METRICS_TOKEN: ' s3cret ' }).metricsToken).toBe('s3cret');
  });
});
