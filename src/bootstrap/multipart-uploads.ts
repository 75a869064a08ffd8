import { fastifyMultipart } from '@fastify/multipart';
import { errorCodes } from 'fastify';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { MULTIPART_ROUTE } from '../common/http/multipart-route';

type Hook = (this: FastifyInstance, ...args: unknown[]) => unknown;
type Parser = (request: FastifyRequest, payload: unknown, done: (err: Error | null, body?: unknown) => void) => void;

const LIMITS = { files: 1, parts: 10, fields: 10, fieldSize: 1024, headerPairs: 50 };

const isUploadRoute = (config: unknown): boolean => (config as Record<string, unknown> | undefined)?.[MULTIPART_ROUTE] === true;

/**
 * Fastify's multipart plugin (kept: it is the maintained parser), with its per-request work confined
 * to the routes that take uploads (@TakesMultipart). Registered app-wide as it comes, it adds an async
 * onRequest hook (a 'close' listener per request) and an async onResponse hook to every route, for temp
 * files only upload routes ever save. Nest registers all routes on the root instance, so encapsulation
 * cannot confine them; instead the plugin runs against a view of the instance that holds those two
 * hooks back, and an onRoute hook gives them to the upload routes only.
 * Measured 2026-11-27 (bench/multipart-hook-cost.js, a JSON PUT, 6 alternating rounds, 2 cores at load 5-6):
 * server CPU per request, app-wide minus bare in the same round, -1.5 to +4.7 µs (median +2.4 µs on bare's
 * 16-20 µs); confined minus bare -1.0 to +3.8 µs (median +0.4 µs). As req/s ratios of bare in the same round,
 * app-wide 0.79-1.24 (median 0.91), confined 0.52-1.66 (median 0.97): the load swamps those.
 *
 * Elsewhere a multipart body is a 415, as before: the plugin's content-type parser is wrapped so the
 * check costs nothing on the JSON requests that make up the traffic (formerly a preValidation hook on
 * every request). The error is Fastify's own unsupported-media-type error, which the exception filter
 * already renders as the contract's 415.
 *
 * Call before any route is added (onRoute sees only routes added after it).
 */
export function multipartUploads(fastify: FastifyInstance): void {
  const held: { onRequest: Hook[]; onResponse: Hook[] } = { onRequest: [], onResponse: [] };
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (!isUploadRoute(route.config)) return;
    // The plugin has loaded by the time a request runs these, so the held hooks are there by then.
    const onRequest: onRequestAsyncHookHandler = function (request, reply) {
      return Promise.all(held.onRequest.map((hook) => hook.call(this, request, reply))).then(() => undefined);
    };
    const onResponse: onRequestAsyncHookHandler = function (request, reply) {
      return Promise.all(held.onResponse.map((hook) => hook.call(this, request, reply))).then(() => undefined);
    };
    route.onRequest = [...toArray(route.onRequest), onRequest] as RouteOptions['onRequest'];
    route.onResponse = [...toArray(route.onResponse), onResponse] as RouteOptions['onResponse'];
  });
  void fastify.register(
    fp((instance: FastifyInstance, _options: unknown, done: (err?: Error) => void) => {
      fastifyMultipart(withHooksHeldBack(instance, held), { limits: LIMITS }, done);
    }),
  );
}

/** The instance as the plugin sees it: its app-wide request hooks are held back, its parser answers 415 off upload routes. */
function withHooksHeldBack(instance: FastifyInstance, held: { onRequest: Hook[]; onResponse: Hook[] }): FastifyInstance {
  const view: FastifyInstance = new Proxy(instance, {
    get(target, property) {
      if (property === 'addHook') {
        return (name: string, hook: Hook) => {
          if (name === 'onRequest' || name === 'onResponse') held[name].push(hook);
          else (target.addHook as (n: string, h: Hook) => unknown)(name, hook);
          return view;
        };
      }
      if (property === 'addContentTypeParser') {
        return (type: string, parser: Parser) => {
          target.addContentTypeParser(type, (request: FastifyRequest, payload: unknown, done: (err: Error | null, body?: unknown) => void) => {
            if (isUploadRoute(request.routeOptions.config)) parser(request, payload, done);
            else done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(type));
          });
          return view;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return view;
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
