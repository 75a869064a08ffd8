import type { Transporter } from 'nodemailer';
import type { MailSettings } from '../../config/outreach-config';
import { DeliveryError, untilAborted } from './delivery-error';
import { Mailer, MailMessage } from './mailer';

/** Bounds of one SMTP conversation; the caller's deadline is shorter, these only end abandoned connections. */
const SMTP_TIMEOUT_MS = 5000;

/** Connection failures worth another try. */
const TRANSIENT_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNRESET', 'ECONNREFUSED', 'EPROTOCOL']);

interface SmtpFailure {
  code?: unknown;
  responseCode?: unknown;
  message?: unknown;
}

/**
 * E-mail through an SMTP relay with nodemailer, one connection per message. smtp:// upgrades with
 * STARTTLS whenever the server offers it, smtps:// speaks TLS from the first byte; the server's
 * certificate is always verified (a private CA is trusted through NODE_EXTRA_CA_CERTS).
 */
export class SmtpMailer extends Mailer {
  readonly transport = 'smtp';
  private readonly transporter: Transporter;

  constructor(private readonly settings: MailSettings) {
    super();
    // nodemailer (0.7 MB) is loaded when an SMTP mailer is made: without SMTP settings (and in most
    // test files) it is never compiled.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
    const { createTransport } = require('nodemailer') as typeof import('nodemailer');
    this.transporter = createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      auth: settings.user !== undefined ? { user: settings.user, pass: settings.pass ?? '' } : undefined,
      tls: { minVersion: 'TLSv1.2' },
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
      // The message carries a sign-in code: nodemailer must never log it.
      logger: false,
      debug: false,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  }

  async send(message: MailMessage, signal: AbortSignal): Promise<void> {
    const sending = this.transporter.sendMail({ from: this.settings.from, ...message });
    try {
      await untilAborted(sending, signal, 'SMTP server');
    } catch (err) {
      sending.catch(() => undefined);
      throw classify(err);
    }
  }
}

/** SMTP's own rule: 4xx is "try again later", 5xx is "no"; no reply code means the connection failed. */
function classify(err: unknown): DeliveryError {
  if (err instanceof DeliveryError) return err;
  const { code, responseCode, message } = (err ?? {}) as SmtpFailure;
  const text = `SMTP: ${typeof message === 'string' ? message : String(err)}`;
  if (typeof responseCode === 'number') return new DeliveryError(responseCode >= 400 && responseCode < 500 ? 'unavailable' : 'refused', text);
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return new DeliveryError('unavailable', text);
  return new DeliveryError('refused', text);
}
