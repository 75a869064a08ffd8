import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticatedRequest, REQUIRES_REGISTRATION } from '../auth/auth.decorators';
import { CommonError } from '../errors/common.errors';
import { routeMetadata } from './route-metadata';

/** Refuses ride and driver endpoints to accounts that have verified an OTP but not registered. */
@Injectable()
export class RegisteredAccountGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const required = routeMetadata<boolean>(this.reflector, REQUIRES_REGISTRATION, context);
    if (!required) return true;
    const user = context.switchToHttp().getRequest<AuthenticatedRequest>().user;
    if (!user?.isRegistered) {
      throw new CommonError('FORBIDDEN', 'Complete registration before using this endpoint');
    }
    return true;
  }
}
