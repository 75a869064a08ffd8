import { createPrivateKey, KeyObject, sign } from 'node:crypto';
import type { ServiceAccount } from '../../config/outreach-config';
import { DeliveryError } from '../messaging/delivery-error';

/** Google's longest assertion lifetime; the access token it buys lives as long as the endpoint says. */
const ASSERTION_LIFETIME_SECONDS = 3600;
/** A token is renewed this long before it expires (half its life for short-lived ones). */
const RENEW_BEFORE_MS = 60_000;
const TOKEN_REQUEST_TIMEOUT_MS = 10_000;

interface TokenAnswer {
  access_token?: unknown;
  expires_in?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/**
 * OAuth 2.0 access tokens for a Google service account by the JWT-bearer grant (RFC 7523): an
 * RS256-signed assertion (iss = the account, scope, aud = token_uri, at most one hour) is posted to
 * token_uri, and the access token it returns is reused until shortly before it expires. Concurrent
 * callers share one request.
 */
export class GoogleAccessTokens {
  private readonly key: KeyObject;
  private cached: { token: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly account: ServiceAccount,
    private readonly scope: string,
  ) {
    this.key = createPrivateKey(account.privateKeyPem);
  }

  get(): Promise<string> {
    if (this.cached && Date.now() < this.cached.renewAt) return Promise.resolve(this.cached.token);
    this.pending ??= this.request().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** The API refused the token (401): the next call gets a new one. */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private async request(): Promise<string> {
    let response: Response;
    try {
      response = await fetch(this.account.tokenUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: this.assertion() }).toString(),
        signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new DeliveryError('unavailable', `OAuth token endpoint unreachable: ${err instanceof Error ? err.message : String(err)}`);
    }
    const answer = (await response.json().catch(() => ({}))) as TokenAnswer;
    if (!response.ok || typeof answer.access_token !== 'string') {
      const kind = response.status === 429 || response.status >= 500 ? 'unavailable' : 'refused';
      throw new DeliveryError(
        kind,
        `OAuth token endpoint answered ${response.status}: ${String(answer.error ?? '')} ${String(answer.error_description ?? '')}`.trim(),
      );
    }
    const lifetimeMs = (typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : ASSERTION_LIFETIME_SECONDS) * 1000;
    this.cached = { token: answer.access_token, renewAt: Date.now() + lifetimeMs - Math.min(RENEW_BEFORE_MS, lifetimeMs / 2) };
    return answer.access_token;
  }

  private assertion(): string {
    const iat = Math.floor(Date.now() / 1000);
    const header = { alg: 'RS256', typ: 'JWT' };
    const claims = { iss: this.account.clientEmail, scope: this.scope, aud: this.account.tokenUri, iat, exp: iat + ASSERTION_LIFETIME_SECONDS };
    const unsigned = `${base64url(header)}.${base64url(claims)}`;
    return `${unsigned}.${sign('sha256', Buffer.from(unsigned), this.key).toString('base64url')}`;
  }
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
