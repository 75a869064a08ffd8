import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticatedRequest, ROLES } from '../auth/auth.decorators';
import { UserRole } from '../auth/authenticated-user';
import { CommonError } from '../errors/common.errors';
import { routeMetadata } from './route-metadata';

/** Refuses a route to roles it is not for (a passenger on a driver endpoint, or the reverse). */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const roles = routeMetadata<UserRole[]>(this.reflector, ROLES, context);
    if (!roles) return true;
    const user = context.switchToHttp().getRequest<AuthenticatedRequest>().user;
    if (!user || !roles.includes(user.role)) {
      throw new CommonError('FORBIDDEN', `This endpoint is only for ${roles.join(' or ')} accounts`);
    }
    return true;
  }
}
