import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from '../common/http/error-body';
import type { AppConfig } from '../config/app-config';

/** Sets the security headers on a response; built once, called for every request. */
export type SecurityHeaders = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Helmet's defaults (nosniff, no-referrer, same-origin resource and opener policies, ...) with
 * three choices. No Content-Security-Policy: the API answers JSON, and a policy strict enough to
 * matter would break the Swagger UI's inline scripts at /docs. Frames denied outright. HSTS only
 * behind the TLS-terminating proxy (TRUST_PROXY): sent over plain HTTP it means nothing, and on a
 * local development port it would pin the browser to https for a year.
 *
 * helmet itself rather than @fastify/helmet: the plugin applies the headers in its own hooks, which
 * Fastify's frameworkErrors path (bad URL) never runs, so that path would need a second declaration;
 * and it rebuilds the helmet middleware on every request (0.44 µs against 0.16 µs built once,
 * node bench/helmet-headers.js).
 *
 * helmet runs once, at start-up, against a recorder: its headers depend on its options only (no
 * middleware of this configuration reads the request). Each response then gets them on Fastify's
 * reply. Set per request on the raw ServerResponse, as helmet does, they pushed every response
 * onto Node's slow writeHead path (headers set before writeHead: each of Fastify's headers went
 * through setHeader again), 4-7 µs of CPU per request (GET /health/live, bench/hot-path-cpu.js).
 */
export function securityHeaders(config: Pick<AppConfig, 'trustProxy'>): SecurityHeaders {
  const apply = helmet({
    contentSecurityPolicy: false,
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: config.trustProxy ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  const set = new Map<string, string>();
  const removed = new Set<string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]): void {
      removed.delete(name.toLowerCase());
      set.set(name.toLowerCase(), String(value));
    },
    removeHeader(name: string): void {
      set.delete(name.toLowerCase());
      removed.add(name.toLowerCase());
    },
  };
  let finished = false;
  apply({} as IncomingMessage, recorder as unknown as ServerResponse, () => (finished = true));
  if (!finished) throw new Error('helmet did not finish synchronously; its headers cannot be recorded once');
  const names = [...set.keys()];
  const values = [...set.values()];
  const toRemove = [...removed];
  return (_request, reply) => {
    for (let i = 0; i < names.length; i++) void reply.header(names[i], values[i]);
    for (let i = 0; i < toRemove.length; i++) void reply.removeHeader(toRemove[i]);
  };
}

const FORBIDDEN_PREFLIGHT = Object.freeze(errorBody(403, 'Cross-origin requests from this origin are not allowed'));

const isPreflight = (request: FastifyRequest): boolean =>
  request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;

/**
 * CORS by allow-list (CORS_ORIGINS, `*` = any) through @fastify/cors. Access tokens travel in the
 * Authorization header, never in cookies, so credentials are not allowed and the allowed origin is
 * echoed back (with `Vary: Origin`). An origin not on the list gets no Access-Control-* header; its
 * preflight (or any preflight with CORS off) is answered 403 in the error shape, so the browser
 * refuses the call and the developer sees why. An OPTIONS request that is not a preflight is routed
 * as any other request (404).
 */
export const corsPolicy = fp<{ origins: readonly string[] }>(async (fastify: FastifyInstance, { origins }) => {
  if (origins.length > 0) {
    const allowed = new Set(origins);
    const anyOrigin = allowed.has('*');
    const base: FastifyCorsOptions = {
      origin: (origin, callback) => callback(null, origin !== undefined && (anyOrigin || allowed.has(origin)) ? origin : false),
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
      exposedHeaders: ['X-Request-Id', 'Retry-After'],
      maxAge: 600,
      credentials: false,
    };
    const notPreflight: FastifyCorsOptions = { ...base, preflight: false };
    await fastify.register(fastifyCors, {
      delegator: (request, callback) => callback(null, request.method === 'OPTIONS' && !isPreflight(request) ? notPreflight : base),
    });
  }
  // Runs after @fastify/cors's hook, which answers the preflights it allows itself.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (isPreflight(request)) void reply.code(403).send(FORBIDDEN_PREFLIGHT);
    else done();
  });
});
