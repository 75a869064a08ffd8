import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccessTokenVerifier } from '../auth/access-token-verifier';
import { AuthenticatedRequest, IS_PUBLIC } from '../auth/auth.decorators';
import { CommonError } from '../errors/common.errors';

/** Global guard: every route needs a valid access token unless marked @Public(). */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: AccessTokenVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    if (typeof header !== 'string' || !/^Bearer\s+\S+$/i.test(header)) {
      throw new CommonError('UNAUTHENTICATED', 'Missing or malformed Authorization header; send Bearer <access_token>');
    }
    request.user = await this.verifier.verify(header.slice(header.indexOf(' ') + 1).trim());
    return true;
  }
}
