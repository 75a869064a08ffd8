import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CommonError } from '../../../common/errors/common.errors';
import { RateLimiter } from '../../../common/rate-limit/rate-limiter';
import { AppConfig } from '../../../config/app-config';

const MINUTE_SECONDS = 60;

/**
 * Per-IP limit on the sign-in endpoints (AUTH_RATE_LIMIT_PER_IP_PER_MINUTE, 0 = off), one counter
 * per endpoint and address, shared by all instances. Not on refresh-token: that is a hot path and
 * already needs a valid, current refresh token.
 */
@Injectable()
export class AuthRateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limit = this.config.authRateLimitPerIpPerMinute;
    if (limit === 0 || context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const hit = await this.limiter.hit(`ip:${context.getHandler().name}:${request.ip}`, limit, MINUTE_SECONDS);
    if (!hit.allowed) throw CommonError.rateLimited(hit.retryAfterSeconds);
    return true;
  }
}
