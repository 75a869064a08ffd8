import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { WsAdapter } from '@nestjs/platform-ws';
import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, LogController } from 'fastify';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { describeFrameworkError, errorBody } from '../common/http/error-body';
import { createValidationPipe } from '../common/http/validation.pipe';
import { createRootLogger, PinoNestLogger, requestLogContext } from '../common/logging/logger';
import { AppConfig } from '../config/app-config';
import { migrateAndSeed } from '../database/migrate';
import { setupOpenApi } from './openapi';
import { parseClientFrame } from './ws-frames';

export interface CreateAppOptions {
  logger?: Logger;
  /** Mount Swagger UI and /docs-json (default true). */
  openApi?: boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Builds the fully configured application (not yet listening). main.ts, the tests and the CLI
 * all go through here, so they run exactly what production runs.
 */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createRootLogger(config.logLevel);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    logController: new OneLineLogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Stop accepting on close but let in-flight requests finish; idle keep-alive sockets close at once.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  const fastify = adapter.getInstance() as unknown as FastifyInstance;
  installRequestHooks(fastify);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger: new PinoNestLogger(logger),
    bufferLogs: false,
    abortOnError: false,
  });
  app.setGlobalPrefix('api/v1', { exclude: ['health/live', 'health/ready'] });
  app.useGlobalPipes(createValidationPipe());
  app.useWebSocketAdapter(new WsAdapter(app, { messageParser: parseClientFrame }));
  if (options.openApi ?? true) setupOpenApi(app);

  if (config.runMigrations) {
    const applied = await migrateAndSeed(app.get(DataSource));
    if (applied.length) logger.info({ migrations: applied }, 'Applied database migrations');
  }
  await app.init();
  return app;
}

/** One access-log line per request (Fastify's default is two), written when the response is sent. */
class OneLineLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(_err: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    request.log.info(
      { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request completed',
    );
  }
}

function installRequestHooks(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    requestLogContext.run(request.log as Logger, done);
  });
  // Errors Fastify raises before Nest sees the request (body parsing, size limits) get the contract's shape too.
  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    const known = describeFrameworkError(error);
    if (known) {
      void reply.status(known.status).send(errorBody(known.status, known.message));
      return;
    }
    request.log.error({ err: error }, 'Unhandled error');
    void reply.status(500).send({ ...errorBody(500, `Internal server error (correlation id ${request.id})`), correlation_id: request.id });
  });
}
