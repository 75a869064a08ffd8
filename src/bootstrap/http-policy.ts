import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../common/http/error-body';
import type { AppConfig } from '../config/app-config';

type Header = readonly [name: string, value: string];

/**
 * Headers every response carries, computed once. No Content-Security-Policy: the API answers JSON,
 * and a policy strict enough to matter would break the Swagger UI's inline scripts at /docs.
 * HSTS only behind the TLS-terminating proxy (TRUST_PROXY): sent over plain HTTP it means nothing,
 * and on a local development port it would pin the browser to https for a year.
 */
export function securityHeaders(config: Pick<AppConfig, 'trustProxy'>): readonly Header[] {
  const headers: Header[] = [
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'DENY'],
    ['referrer-policy', 'no-referrer'],
    ['cross-origin-resource-policy', 'same-origin'],
  ];
  if (config.trustProxy) headers.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  return Object.freeze(headers);
}

export function setHeaders(reply: FastifyReply, headers: readonly Header[]): void {
  for (let i = 0; i < headers.length; i++) void reply.header(headers[i][0], headers[i][1]);
}

const PREFLIGHT_HEADERS: readonly Header[] = [
  ['access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE'],
  ['access-control-allow-headers', 'Authorization, Content-Type, Idempotency-Key, X-Request-Id'],
  ['access-control-max-age', '600'],
];
const EXPOSE_HEADERS = 'X-Request-Id, Retry-After';
const FORBIDDEN_PREFLIGHT = Object.freeze(errorBody(403, 'Cross-origin requests from this origin are not allowed'));

/**
 * CORS by allow-list (CORS_ORIGINS). Access tokens travel in the Authorization header, never in
 * cookies, so credentials are not allowed and the allowed origin is echoed back. A preflight from an
 * origin not on the list (or with CORS off) is answered 403 in the error shape, without any
 * Access-Control-Allow-* header, so the browser refuses the call and the developer sees why.
 */
export class CorsPolicy {
  private readonly origins: ReadonlySet<string>;
  private readonly anyOrigin: boolean;
  readonly enabled: boolean;

  constructor(origins: readonly string[]) {
    this.origins = new Set(origins);
    this.anyOrigin = this.origins.has('*');
    this.enabled = this.origins.size > 0;
  }

  allows(origin: string): boolean {
    return this.anyOrigin || this.origins.has(origin);
  }

  /** Adds the CORS headers; answers a preflight itself and then returns true. */
  apply(request: FastifyRequest, reply: FastifyReply): boolean {
    const origin = request.headers.origin;
    let allowed = false;
    if (this.enabled) {
      // The answer depends on Origin, so shared caches must not hand one origin's answer to another.
      void reply.header('vary', 'Origin');
      if (origin !== undefined && this.allows(origin)) {
        allowed = true;
        void reply.header('access-control-allow-origin', origin);
      }
    }
    const preflight = request.method === 'OPTIONS' && origin !== undefined && request.headers['access-control-request-method'] !== undefined;
    if (!preflight) {
      if (allowed) void reply.header('access-control-expose-headers', EXPOSE_HEADERS);
      return false;
    }
    if (allowed) {
      setHeaders(reply, PREFLIGHT_HEADERS);
      void reply.code(204).send();
    } else {
      void reply.code(403).send(FORBIDDEN_PREFLIGHT);
    }
    return true;
  }
}
