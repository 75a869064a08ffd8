import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthenticatedUser, UserRole } from './authenticated-user';

export const IS_PUBLIC = 'auth:public';
export const ROLES = 'auth:roles';
export const REQUIRES_REGISTRATION = 'auth:requires-registration';
/** @nestjs/swagger's metadata key behind @ApiSecurity (DECORATORS.API_SECURITY). */
const SWAGGER_API_SECURITY = 'swagger/apiSecurity';

/**
 * The route needs no access token. The OpenAPI document says so with the empty requirement `{}`
 * ("no credentials"), which overrides the document-wide bearer requirement.
 */
export const Public = (): MethodDecorator & ClassDecorator => applyDecorators(SetMetadata(IS_PUBLIC, true), SetMetadata(SWAGGER_API_SECURITY, [{}]));

/** Only these roles may call the route (403 otherwise). */
export const Roles = (...roles: UserRole[]): MethodDecorator & ClassDecorator => SetMetadata(ROLES, roles);

/** The caller must have completed registration (403 otherwise). */
export const RequiresRegistration = (): MethodDecorator & ClassDecorator => SetMetadata(REQUIRES_REGISTRATION, true);

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header; undefined for anything else. */
export function bearerToken(header: string | undefined): string | undefined {
  return typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
}

export type AuthenticatedRequest = FastifyRequest & { user?: AuthenticatedUser };

export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthenticatedUser => {
  const user = ctx.switchToHttp().getRequest<AuthenticatedRequest>().user;
  if (!user) throw new Error('CurrentUser used on a route without authentication');
  return user;
});
