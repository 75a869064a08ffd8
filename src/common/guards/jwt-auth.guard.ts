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

  // Plain async: Nest's guard consumer awaits whatever canActivate returns, so a value saves no turn.
  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (routeMetadata<boolean>(this.reflector, IS_PUBLIC, context)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) {
      throw new CommonError('UNAUTHENTICATED', 'Missing or malformed Authorization header; send Bearer <access_token>');
    }
    request.user = await this.verifier.verify(token);
    return true;
  }
}
