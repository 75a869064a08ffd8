import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { isAdminRoute } from '../auth/admin-routes';
import { AuthenticatedRequest } from '../auth/auth.decorators';
import { OPEN_TO_OPERATORS, OPERATOR_ACTION } from '../auth/operator-action.decorator';
import { mayPerform, OperatorAction } from '../auth/operator-permissions';
import { CommonError } from '../errors/common.errors';
import { routeMetadata } from './route-metadata';

export const OPERATORS_ONLY = 'Operators only';
export const NOT_ALLOWED_FOR_ROLE = 'Not allowed for your role';
export const OPERATOR_TOKEN_CONFINED = 'Operator accounts may only use the /api/v1/admin/ endpoints';

/**
 * Keeps operators and everyone else apart (CONTRACT §13): under /api/v1/admin/ only operators whose
 * role OPERATOR_PERMISSIONS allows the route's action; elsewhere no operator token (it works only
 * there and on the live socket). A route under /admin/ without an action is refused to all; the
 * app does not even start with one (operatorRouteProblems).
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const user = context.switchToHttp().getRequest<AuthenticatedRequest>().user;
    if (isAdminRoute(context.getClass(), context.getHandler())) {
      if (user?.role !== 'operator') throw new CommonError('FORBIDDEN', OPERATORS_ONLY);
      const action = routeMetadata<OperatorAction>(this.reflector, OPERATOR_ACTION, context);
      if (action === undefined || !mayPerform(user.operatorRole, action)) throw new CommonError('FORBIDDEN', NOT_ALLOWED_FOR_ROLE);
      return true;
    }
    if (user?.role === 'operator' && !routeMetadata<boolean>(this.reflector, OPEN_TO_OPERATORS, context)) {
      throw new CommonError('FORBIDDEN', OPERATOR_TOKEN_CONFINED);
    }
    return true;
  }
}
