import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { FieldProblem, unknownFieldProblem, ValidationFailedException } from '../http/validation.pipe';

export const BODY_NOT_AN_OBJECT = 'Request body must be a JSON object';
export const BODY_NOT_TAKEN = 'This operation takes no request body';

/** Per handler: whether it declares a @Body() parameter (decorator metadata is fixed once the app is built). */
const declaresBody = new WeakMap<object, boolean>();

/**
 * What a request body may be, derived from the route's declared parameters rather than stated per
 * controller (CONTRACT §1): a route with a @Body() DTO takes a JSON object or nothing (an absent or
 * empty body is validated as `{}`, so required fields are reported by name); `null`, an array or a
 * scalar is a 400. A route without one takes nothing (`{}` is tolerated: many mobile HTTP clients
 * send it on body-less POSTs); any field is a 400 as unknown, as it would be on a DTO.
 *
 * A guard, the last global one, because it must see every route (no pipe runs for a parameter that
 * is not declared) and answer after authentication and the role checks, before any pipe, as the
 * DTO validation does.
 */
@Injectable()
export class RequestBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const body = context.switchToHttp().getRequest<{ body?: unknown }>().body;
    if (body === undefined) return true;
    const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
    if (takesBody(context)) {
      if (!isObject) throw new ValidationFailedException([{ field: 'body', message: BODY_NOT_AN_OBJECT }]);
      return true;
    }
    if (!isObject) throw new ValidationFailedException([{ field: 'body', message: BODY_NOT_TAKEN }]);
    const problems: FieldProblem[] = [];
    for (const key in body) if (Object.hasOwn(body, key)) problems.push(unknownFieldProblem(key));
    if (problems.length > 0) throw new ValidationFailedException(problems);
    return true;
  }
}

function takesBody(context: ExecutionContext): boolean {
  const handler = context.getHandler();
  let known = declaresBody.get(handler);
  if (known === undefined) {
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {}) as Record<string, unknown>;
    known = Object.keys(args).some((key) => key.startsWith(`${RouteParamtypes.BODY}:`));
    declaresBody.set(handler, known);
  }
  return known;
}
