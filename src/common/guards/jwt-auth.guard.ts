import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccessTokenVerifier } from '../auth/access-token-verifier';
import { AuthenticatedRequest, bearerToken, IS_PUBLIC } from '../auth/auth.decorators';
import { CommonError } from '../errors/common.errors';
import { routeMetadata } from './route-metadata';

/** Global guard: every route needs a valid access token unless marked @Public(). */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: AccessTokenVerifier,
  ) {}

  /** Synchronous for public routes and cached users (Nest awaits only a promise), else a promise. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (routeMetadata<boolean>(this.reflector, IS_PUBLIC, context)) return true;
    return this.authenticate(context.switchToHttp().getRequest<AuthenticatedRequest>());
  }

  /** Synchronous too while the user's state is cached: every promise costs a hot route. */
  private authenticate(request: AuthenticatedRequest): boolean | Promise<boolean> {
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) {
      throw new CommonError('UNAUTHENTICATED', 'Missing or malformed Authorization header; send Bearer <access_token>');
    }
    const user = this.verifier.verifyNow(token);
    if (user instanceof Promise) {
      return user.then((verified) => {
        request.user = verified;
        return true;
      });
    }
    request.user = user;
    return true;
  }
}
