import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error';
import { Setting } from './settings';

/** An SMTP relay (CONTRACT §10): STARTTLS when offered on smtp://, TLS from the first byte on smtps://. */
export interface MailSettings {
  host: string;
  port: number;
  /** smtps:// (implicit TLS). */
  secure: boolean;
  user: string | undefined;
  pass: string | undefined;
  from: string;
}

export interface TwilioSettings {
  provider: 'twilio';
  accountSid: string;
  authToken: string;
  from: string;
  /** Without a trailing slash. */
  apiBase: string;
}

export type SmsSettings = TwilioSettings;
export const SMS_PROVIDERS = ['twilio'] as const;

/** The fields of a Google service-account JSON that the FCM HTTP v1 sign-in needs. */
export interface ServiceAccount {
  projectId: string;
  clientEmail: string;
  privateKeyPem: string;
  tokenUri: string;
}

export interface PushSettings {
  serviceAccount: ServiceAccount;
  /** Without a trailing slash. */
  apiBase: string;
}

/** Who the service reaches outside the app, and how: sign-in codes by e-mail and SMS, ride alerts by push. */
export interface OutreachConfig {
  appName: string;
  mail: MailSettings | undefined;
  sms: SmsSettings | undefined;
  push: PushSettings | undefined;
}

/** The raw variables, declared here and read by AppConfig.fromEnv (and listed in .env.example). */
export class OutreachEnv {
  @Setting.string('Rides') readonly APP_NAME!: string;
  @Setting.optionalString() readonly SMTP_URL!: string | undefined;
  @Setting.optionalString() readonly MAIL_FROM!: string | undefined;
  @Setting.optionalString() readonly SMS_PROVIDER!: string | undefined;
  @Setting.optionalString() readonly TWILIO_ACCOUNT_SID!: string | undefined;
  @Setting.optionalString() readonly TWILIO_AUTH_TOKEN!: string | undefined;
  @Setting.optionalString() readonly TWILIO_FROM!: string | undefined;
  @Setting.string('https://api.twilio.com') readonly TWILIO_API_BASE!: string;
  @Setting.optionalString() readonly FCM_SERVICE_ACCOUNT_FILE!: string | undefined;
  @Setting.string('https://fcm.googleapis.com') readonly FCM_API_BASE!: string;
}

// Header values end up in mail headers and notification texts: no line breaks or other controls.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const MAILBOX = /^(?:[^<>]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/;

export function parseOutreach(env: OutreachEnv, isProduction: boolean): OutreachConfig {
  const appName = env.APP_NAME;
  if (appName.length > 60 || CONTROL_CHARACTERS.test(appName)) {
    throw new ConfigError('APP_NAME', 'must be at most 60 characters without line breaks');
  }
  const config: OutreachConfig = {
    appName,
    mail: parseMail(env, appName, isProduction),
    sms: parseSms(env),
    push: parsePush(env),
  };
  // A production service that cannot deliver a code signs nobody in; fail at start, not at the first user.
  if (isProduction && !config.mail && !config.sms) {
    throw new ConfigError('SMTP_URL', 'or SMS_PROVIDER must be set when NODE_ENV=production: sign-in codes need at least one channel (e-mail or SMS)');
  }
  return config;
}

function parseMail(env: OutreachEnv, appName: string, isProduction: boolean): MailSettings | undefined {
  if (env.SMTP_URL === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(env.SMTP_URL);
  } catch {
    url = new URL('invalid:');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '' || url.pathname.replace(/^\/+/, '') !== '' || url.search) {
    throw new ConfigError('SMTP_URL', 'must look like smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465 (implicit TLS)');
  }
  const secure = url.protocol === 'smtps:';
  if (env.MAIL_FROM === undefined && isProduction) {
    throw new ConfigError('MAIL_FROM', 'is required with SMTP_URL when NODE_ENV=production, e.g. "Rides <no-reply@example.com>"');
  }
  const from = env.MAIL_FROM ?? `${appName} <no-reply@example.com>`;
  if (!MAILBOX.test(from) || CONTROL_CHARACTERS.test(from)) {
    throw new ConfigError('MAIL_FROM', `must be an address such as "Rides <no-reply@example.com>" (got "${from}")`);
  }
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    pass: url.password ? decodeURIComponent(url.password) : undefined,
    from,
  };
}

function parseSms(env: OutreachEnv): SmsSettings | undefined {
  const provider = env.SMS_PROVIDER;
  if (provider === undefined || provider === 'none') {
    const stray = (['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const).find((name) => env[name] !== undefined);
    if (stray) throw new ConfigError('SMS_PROVIDER', `must be set (to twilio) when ${stray} is set`);
    return undefined;
  }
  if (provider !== 'twilio') throw new ConfigError('SMS_PROVIDER', `must be one of ${SMS_PROVIDERS.join(', ')}, none (got "${provider}")`);
  const required = (name: 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN' | 'TWILIO_FROM'): string => {
    const value = env[name];
    if (value === undefined) throw new ConfigError(name, 'is required when SMS_PROVIDER=twilio');
    return value;
  };
  const accountSid = required('TWILIO_ACCOUNT_SID');
  if (!/^[A-Za-z0-9]+$/.test(accountSid)) throw new ConfigError('TWILIO_ACCOUNT_SID', 'must be the account SID (AC followed by 32 hex digits)');
  const from = required('TWILIO_FROM');
  if (CONTROL_CHARACTERS.test(from)) throw new ConfigError('TWILIO_FROM', 'must be a phone number in E.164 format or a sender id');
  return { provider, accountSid, authToken: required('TWILIO_AUTH_TOKEN'), from, apiBase: httpBase('TWILIO_API_BASE', env.TWILIO_API_BASE) };
}

function parsePush(env: OutreachEnv): PushSettings | undefined {
  const apiBase = httpBase('FCM_API_BASE', env.FCM_API_BASE);
  if (env.FCM_SERVICE_ACCOUNT_FILE === undefined) return undefined;
  return { serviceAccount: readServiceAccount(env.FCM_SERVICE_ACCOUNT_FILE), apiBase };
}

/** Reads and checks the service-account JSON at start-up, so a bad file stops the service rather than every push. */
export function readServiceAccount(path: string): ServiceAccount {
  const fail = (problem: string): never => {
    throw new ConfigError('FCM_SERVICE_ACCOUNT_FILE', `${problem} (${path})`);
  };
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    fail(`must name a readable Google service-account JSON file: ${err instanceof Error ? err.message : String(err)}`);
  }
  const field = (name: string): string => {
    const value = json[name];
    return typeof value === 'string' && value.trim() !== '' ? value : fail(`has no "${name}"`);
  };
  const account: ServiceAccount = {
    projectId: field('project_id'),
    clientEmail: field('client_email'),
    privateKeyPem: field('private_key'),
    tokenUri: field('token_uri'),
  };
  try {
    if (createPrivateKey(account.privateKeyPem).asymmetricKeyType !== 'rsa') fail('has a private_key that is not an RSA key');
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    fail('has a private_key that is not a PEM private key');
  }
  if (!/^https?:\/\/[^/]/.test(account.tokenUri)) fail('has a token_uri that is not an http(s) URL');
  if (!/^[a-z0-9-]+$/i.test(account.projectId)) fail('has a project_id that is not a Firebase project id');
  return account;
}

function httpBase(name: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash) {
    throw new ConfigError(name, `must be an http(s) URL (got "${value}")`);
  }
  return value.replace(/\/+$/, '');
}
