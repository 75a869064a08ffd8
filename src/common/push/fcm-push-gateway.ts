import type { PushSettings } from '../../config/outreach-config';
import { DeliveryError } from '../messaging/delivery-error';
import { GoogleAccessTokens } from './google-access-tokens';
import { PushGateway, PushMessage, PushResult } from './push-gateway';

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const SEND_TIMEOUT_MS = 10_000;
/** The one retry of a 429 or 5xx waits this long, or FCM's Retry-After when it is shorter. */
const RETRY_PAUSE_MAX_MS = 2000;

interface FcmErrorBody {
  error?: { code?: number; status?: string; message?: string; details?: Array<{ '@type'?: string; errorCode?: string }> };
}

/**
 * FCM HTTP v1: `POST {base}/v1/projects/{project_id}/messages:send` with an OAuth access token of
 * the service account, a data message (strings only) with a notification and high Android
 * priority, so a backgrounded app wakes for it. A 401 renews the access token once; a 429 or 5xx is
 * retried once; 404 UNREGISTERED means the token is dead.
 */
export class FcmPushGateway extends PushGateway {
  private readonly url: string;
  private readonly tokens: GoogleAccessTokens;

  /** sendTimeoutMs: how long one send may wait for FCM's answer (a test proves the bound with a shorter one). */
  constructor(
    settings: PushSettings,
    private readonly sendTimeoutMs = SEND_TIMEOUT_MS,
  ) {
    super();
    this.url = `${settings.apiBase}/v1/projects/${encodeURIComponent(settings.serviceAccount.projectId)}/messages:send`;
    this.tokens = new GoogleAccessTokens(settings.serviceAccount, FCM_SCOPE);
  }

  async send(message: PushMessage): Promise<PushResult> {
    const body = JSON.stringify({
      message: {
        token: message.token,
        data: message.data,
        notification: { title: message.title, body: message.body },
        android: { priority: 'high' },
      },
    });
    for (let attempt = 1; ; attempt += 1) {
      const accessToken = await this.tokens.get();
      const response = await this.post(accessToken, body);
      if (response.ok) {
        await response.arrayBuffer().catch(() => undefined);
        return 'sent';
      }
      const error = ((await response.json().catch(() => ({}))) as FcmErrorBody).error;
      const errorCode = error?.details?.find((detail) => detail['@type']?.endsWith('FcmError'))?.errorCode;
      if (response.status === 404 && errorCode === 'UNREGISTERED') return 'unregistered';
      const said = `FCM answered ${response.status} ${error?.status ?? ''}${errorCode ? `/${errorCode}` : ''}`.trim();
      if (attempt === 1 && response.status === 401) {
        this.tokens.invalidate(accessToken);
        continue;
      }
      const transient = response.status === 429 || response.status >= 500;
      if (attempt === 1 && transient) {
        await pause(retryAfterMs(response.headers.get('retry-after')));
        continue;
      }
      throw new DeliveryError(transient ? 'unavailable' : 'refused', said);
    }
  }

  private async post(accessToken: string, body: string): Promise<Response> {
    try {
      return await fetch(this.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json; charset=utf-8' },
        body,
        signal: AbortSignal.timeout(this.sendTimeoutMs),
      });
    } catch (err) {
      throw new DeliveryError('unavailable', `FCM unreachable: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, RETRY_PAUSE_MAX_MS) : RETRY_PAUSE_MAX_MS;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
