import type { TwilioSettings } from '../../config/outreach-config';
import { DeliveryError } from './delivery-error';
import { SmsGateway } from './sms-gateway';

/** Twilio's permanent verdicts on the `To` number: not a valid phone number (21211), not a mobile number (21614). */
const INVALID_NUMBER_CODES = new Set([21211, 21614]);

interface TwilioErrorBody {
  code?: unknown;
  message?: unknown;
}

/**
 * Twilio's Messages API: one form-encoded POST per message with HTTP basic auth (account SID and
 * auth token), answered 201 with the message resource or an error JSON with Twilio's `code`.
 * Node's fetch keeps the connection alive between messages.
 */
export class TwilioSmsGateway extends SmsGateway {
  readonly provider = 'twilio';
  private readonly url: string;
  private readonly authorization: string;

  constructor(private readonly settings: TwilioSettings) {
    super();
    this.url = `${settings.apiBase}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
    this.authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  }

  async send(to: string, body: string, signal: AbortSignal): Promise<void> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { authorization: this.authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ To: to, From: this.settings.from, Body: body }).toString(),
        signal,
      });
    } catch (err) {
      throw new DeliveryError('unavailable', `Twilio could not be reached: ${describe(err)}`);
    }
    // The message resource echoes the body (the code): it is read only to free the connection.
    if (response.ok) {
      await response.arrayBuffer().catch(() => undefined);
      return;
    }
    const error = (await response.json().catch(() => ({}))) as TwilioErrorBody;
    const code = typeof error.code === 'number' ? error.code : undefined;
    const said = `Twilio answered ${response.status}${code ? ` (error ${code})` : ''}`;
    if (response.status === 429 || response.status >= 500) throw new DeliveryError('unavailable', said);
    if (response.status === 400 && code !== undefined && INVALID_NUMBER_CODES.has(code)) throw new DeliveryError('invalid_recipient', said);
    throw new DeliveryError('refused', `${said}: ${typeof error.message === 'string' ? error.message : 'no message'}`);
  }
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
}
