import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../errors/domain.error';
import { describeFrameworkError, ErrorBody, errorBody } from '../http/error-body';
import { loggableUrl } from '../http/loggable-url';
import { ERROR_STATUSES, ErrorStatuses } from './error-statuses.token';
import { ValidationFailedException } from '../http/validation.pipe';
import { OUTAGE_RETRY_AFTER_SECONDS, recogniseOutage } from '../errors/outage';

/**
 * The single place where failures become HTTP responses: domain errors through the status map,
 * framework errors by their status, an unreachable database or Redis a 503 with Retry-After (the
 * client did nothing wrong and may retry), anything else a 500 that carries the request id and
 * nothing of the cause (the cause goes to the log in full).
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(@Inject(ERROR_STATUSES) private readonly statuses: ErrorStatuses) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { body, retryAfter } = this.toBody(exception, request);
    if (retryAfter !== undefined) void reply.header('Retry-After', String(retryAfter));
    void reply.status(body.statusCode).send(body);
  }

  toBody(exception: unknown, request: FastifyRequest): { body: ErrorBody; retryAfter?: number } {
    if (exception instanceof DomainError) {
      const status = this.statuses[exception.code];
      if (status !== undefined) {
        return {
          body: errorBody(status, exception.message, exception.details),
          retryAfter: exception.retryAfterSeconds,
        };
      }
    } else if (exception instanceof ValidationFailedException) {
      return { body: errorBody(400, exception.summary, exception.details) };
    } else if (exception instanceof HttpException) {
      // Nest's exception layer wraps Fastify's own 4xx errors (bad JSON, body too large, bad media
      // type) in an HttpException whose cause is the original: its message is Fastify's, ours is better.
      const framework = describeFrameworkError(exception.cause);
      if (framework) return { body: errorBody(framework.status, framework.message) };
      const status = exception.getStatus();
      if (status < 500) return { body: errorBody(status, httpMessage(exception)) };
    } else {
      const framework = describeFrameworkError(exception);
      if (framework) return { body: errorBody(framework.status, framework.message) };
    }
    const correlationId = String(request.id);
    const outage = recogniseOutage(exception);
    if (outage) {
      this.logger.warn({ err: exception, request_id: correlationId, url: loggableUrl(request), dependency: outage.dependency }, 'Dependency unavailable');
      return { body: errorBody(503, outage.message), retryAfter: OUTAGE_RETRY_AFTER_SECONDS };
    }
    this.logger.error({ err: exception, request_id: correlationId, url: loggableUrl(request) }, 'Unhandled error');
    const body = errorBody(500, `Internal server error (correlation id ${correlationId})`);
    body.correlation_id = correlationId;
    return { body };
  }
}

function httpMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  if (typeof message === 'string') return message;
  return exception.message;
}
