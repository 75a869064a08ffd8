import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthenticatedUser, UserRole } from './authenticated-user';

export const IS_PUBLIC = 'auth:public';
export const ROLES = 'auth:roles';
export const REQUIRES_REGISTRATION = 'auth:requires-registration';

/** The route needs no access token. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/** Only these roles may call the route (403 otherwise). */
export const Roles = (...roles: UserRole[]): MethodDecorator & ClassDecorator => SetMetadata(ROLES, roles);

/** The caller must have completed registration (403 otherwise). */
export const RequiresRegistration = (): MethodDecorator & ClassDecorator => SetMetadata(REQUIRES_REGISTRATION, true);

export type AuthenticatedRequest = FastifyRequest & { user?: AuthenticatedUser };

export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthenticatedUser => {
  const user = ctx.switchToHttp().getRequest<AuthenticatedRequest>().user;
  if (!user) throw new Error('CurrentUser used on a route without authentication');
  return user;
});
