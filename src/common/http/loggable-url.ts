import type { FastifyRequest } from 'fastify';

/** Route parameters that are secrets (a trip-sharing token opens someone's live trip). */
const SECRET_PARAMETER = /\/:token(?=\/|$)/;

/**
 * The URL as logs may carry it: a route with a secret parameter is logged as its pattern
 * (`/api/v1/shared-rides/:token`), so the log gives away no live link; any other as requested.
 */
export function loggableUrl(request: FastifyRequest): string {
  const route = request.routeOptions?.url;
  return route !== undefined && SECRET_PARAMETER.test(route) ? route : request.url;
}
