import { applyDecorators, Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '../common/auth/auth.decorators';
import { ErrorBody, errorBody } from '../common/http/error-body';
import { REDIS_CLIENT, RedisClient } from '../common/redis/redis.module';

type CheckResult = 'up' | 'down';
type ReadyBody = { status: 'ok' | 'unavailable'; checks: Record<string, CheckResult> } & Partial<ErrorBody>;

function ReadyResponses(): MethodDecorator {
  return applyDecorators(
    ApiOkResponse({ schema: { example: { status: 'ok', checks: { database: 'up', redis: 'up' } } } }),
    ApiServiceUnavailableResponse({
      description: 'A dependency is down: the error shape plus the checks',
      schema: {
        example: {
          statusCode: 503,
          error: 'Service Unavailable',
          message: 'Not ready: database is down',
          status: 'unavailable',
          checks: { database: 'down' },
        },
      },
    }),
  );
}

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(REDIS_CLIENT) private readonly redis: RedisClient,
  ) {}

  @Get('live')
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness: the process is serving requests' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database (and Redis, when configured) answer' })
  @ReadyResponses()
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadyBody> {
    const checks: Record<string, CheckResult> = { database: await this.check(() => this.dataSource.query('SELECT 1')) };
    if (this.redis) checks.redis = await this.check(() => this.redis!.ping());
    const down = Object.keys(checks).filter((name) => checks[name] === 'down');
    if (down.length === 0) return { status: 'ok', checks };
    void reply.status(503);
    // A 503 is an error response like any other, so it carries the contract's error shape too.
    return { ...errorBody(503, `Not ready: ${down.join(' and ')} ${down.length > 1 ? 'are' : 'is'} down`), status: 'unavailable', checks };
  }

  /** What a person or a simple load balancer asks first: the readiness answer under the shortest path. */
  @Get()
  @ApiOperation({ summary: 'Health at a glance: the same answer as /health/ready' })
  @ReadyResponses()
  health(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadyBody> {
    return this.ready(reply);
  }

  private async check(probe: () => Promise<unknown>): Promise<CheckResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), 2000);
    });
    try {
      await Promise.race([probe(), timeout]);
      return 'up';
    } catch {
      return 'down';
    } finally {
      clearTimeout(timer);
    }
  }
}
