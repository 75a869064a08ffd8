import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccessTokenVerifier } from '../auth/access-token-verifier';
import { AuthenticatedRequest, IS_PUBLIC } from '../auth/auth.decorators';
import { CommonError } from '../errors/common.errors';
import { routeMetadata } from './route-metadata';

const BEARER = /^Bearer\s+\S+$/i;

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
    const header = request.headers.authorization;
    if (typeof header !== 'string' || !BEARER.test(header)) {
      throw new CommonError('UNAUTHENTICATED', 'Missing or malformed Authorization header; send Bearer <access_token>');
    }
    const user = this.verifier.verifyNow(header.slice(header.indexOf(' ') + 1).trim());
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
