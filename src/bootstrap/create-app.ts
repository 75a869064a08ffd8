import { randomUUID } from 'node:crypto';
import { DynamicModule, Module, Type } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, LogController } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { declaredRoutes, operatorRouteProblems } from '../common/auth/admin-routes';
import { describeFrameworkError, errorBody } from '../common/http/error-body';
import { createValidationPipe, ValidationFailedException } from '../common/http/validation.pipe';
import { createRootLogger, PinoNestLogger } from '../common/logging/logger';
import { Metrics } from '../common/metrics/metrics';
import { AppConfig } from '../config/app-config';
import { migrateAndSeed } from '../database/migrate';
import { installConsole } from './console';
import { corsPolicy, SecurityHeaders, securityHeaders } from './http-policy';
import { hasTooManyQueryParameters, jsonShapeMessage, jsonShapeProblem, TOO_MANY_QUERY_PARAMETERS_MESSAGE } from '../common/http/request-limits';
import { applyRouting, setupOpenApi } from './openapi';
import { answerClientError, requestTimeouts } from './request-deadlines';
import { multipartUploads } from './multipart-uploads';
import { oversizedBodies } from './oversized-bodies';
import { loggableUrl } from '../common/http/loggable-url';
import { LiveWsAdapter } from '../modules/realtime/live-ws-adapter';
import { RAW_BODY, STRIPE_WEBHOOK_ROUTE } from '../modules/payments/payments.routes';

export interface CreateAppOptions {
  logger?: Logger;
  /** Mount Swagger UI and /docs-json (default true). */
  openApi?: boolean;
  /** An operator process (the CLI): its events reach a running server (see EventBusModule). */
  operator?: boolean;
  /** Extra modules mounted beside AppModule (tests use it for probe controllers). */
  modules?: Array<Type | DynamicModule>;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Builds the fully configured application (not yet listening). main.ts, the tests and the CLI
 * all go through here, so they run exactly what production runs.
 */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createRootLogger(config.logLevel, { buffered: config.isProduction });
  const metrics = new Metrics(config.metricsToken !== undefined);
  const headers = securityHeaders(config);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    logController: new OneLineLogController({ requestIdLogLabel: 'request_id' }, metrics.enabled ? metrics : undefined),
    bodyLimit: config.bodyLimitBytes,
    ...requestTimeouts(config.requestTimeoutMs),
    clientErrorHandler: answerClientError,
    trustProxy: config.trustProxy,
    // genReqId reads x-request-id itself so that an unusable value is replaced, not trusted.
    requestIdHeader: false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Stop accepting on close but let in-flight requests finish; idle keep-alive sockets close at once.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // Errors of Fastify's router (bad percent-encoding, over-long path segment) never reach Nest;
    // without this they would answer in Fastify's shape, with a `code` field.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const known = describeFrameworkError(error) ?? { status: 400, message: 'Bad request' };
      headers(request, reply);
      void reply.code(known.status).send(errorBody(known.status, known.message));
    },
  });
  const fastify = adapter.getInstance() as unknown as FastifyInstance;
  installRequestHooks(fastify, headers, config.corsOrigins);
  installJsonOnlyBodyParsing(fastify);
  installConsole(fastify, config);

  const appModule = AppModule.forRoot(config, { ...options, metrics });
  const root = options.modules?.length ? withExtraModules(appModule, options.modules) : appModule;
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    logger: new PinoNestLogger(logger),
    bufferLogs: false,
    abortOnError: false,
    // Body parsing is ours (installJsonOnlyBodyParsing): JSON only, and an empty body means "no body".
    bodyParser: false,
  });
  await refuseUnguardedAdminRoutes(app);
  applyRouting(app);
  app.useGlobalPipes(createValidationPipe());
  app.useWebSocketAdapter(new LiveWsAdapter(app));
  if (options.openApi ?? true) setupOpenApi(app);

  if (config.runMigrations) {
    const applied = await migrateAndSeed(app.get(DataSource));
    if (applied.length) logger.info({ migrations: applied }, 'Applied database migrations');
  }
  await app.init();
  return app;
}

/** Deny by default (CONTRACT §13): an admin route that names no permission stops the start-up. */
async function refuseUnguardedAdminRoutes(app: NestFastifyApplication): Promise<void> {
  const problems = operatorRouteProblems(declaredRoutes(app.get(ModulesContainer)));
  if (problems.length === 0) return;
  await app.close();
  throw new Error(`Operator routes without a permission:\n  ${problems.join('\n  ')}`);
}

const TOO_MANY_QUERY_PARAMETERS = Object.freeze(errorBody(400, TOO_MANY_QUERY_PARAMETERS_MESSAGE));

const SLOW_REQUEST_MS = 1000;

/**
 * One access-log line per request (Fastify's default is two), written when the response is sent.
 * Fast successes log at debug: at info level a line per heartbeat would cost the hot paths a large
 * share of their throughput. Client errors log at info, slow requests at warn; server errors are
 * logged in full by the exception filter.
 */
class OneLineLogController extends LogController {
  /** Request latency is timed here too, at no extra hook: Fastify calls this once per response anyway. */
  constructor(
    options: ConstructorParameters<typeof LogController>[0],
    private readonly metrics: Metrics | undefined,
  ) {
    super(options);
  }

  override incomingRequest(): void {}

  override requestCompleted(_err: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const ms = reply.elapsedTime;
    this.metrics?.observeHttp(request.method, request.routeOptions.url, reply.statusCode, ms / 1000);
    const level = ms >= SLOW_REQUEST_MS ? 'warn' : reply.statusCode >= 400 ? 'info' : 'debug';
    const log = request.log as Logger;
    if (!log.isLevelEnabled(level)) return;
    log[level]({ method: request.method, url: loggableUrl(request), status: reply.statusCode, ms: Math.round(ms) }, 'request completed');
  }
}

function installRequestHooks(fastify: FastifyInstance, headers: SecurityHeaders, corsOrigins: readonly string[]): void {
  // The first hook of every request, so errors, 404s and preflights carry the headers too.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    headers(request, reply);
    done();
  });
  // Plugins load in order, so their hooks run after the one above and in this order.
  void fastify.register(corsPolicy, { origins: corsOrigins });
  void fastify.register(
    fp(async (instance: FastifyInstance) => {
      instance.addHook('onRequest', (request, reply, done) => {
        if (hasTooManyQueryParameters(request.url)) void reply.code(400).send(TOO_MANY_QUERY_PARAMETERS);
        else done();
      });
    }),
  );
  void fastify.register(oversizedBodies);
  multipartUploads(fastify);
  // server.close() closes the keep-alive connections that are idle at that moment; one busy with
  // an in-flight request would stay open after its response until keepAliveTimeout (72 s), and the
  // shutdown would time out. So idle connections are closed again as requests finish.
  fastify.addHook('preClose', (done) => {
    const timer = setInterval(() => fastify.server.closeIdleConnections(), 50).unref();
    fastify.server.once('close', () => clearInterval(timer));
    done();
  });
  // No setErrorHandler here: Nest installs its own at init (the exception layer), which hands every
  // Fastify error (bad JSON, body too large, bad media type) to AllExceptionsFilter as an
  // HttpException whose `cause` is the Fastify error; the filter renders it in the contract's shape.
}

/**
 * The API speaks JSON only: other media types get 415 instead of reaching a handler as a string or
 * form. Mobile HTTP clients often send `Content-Type: application/json` with an empty body on
 * body-less POSTs (logout, accept); that is treated as no body rather than as malformed JSON.
 * Nesting depth, keys per object, elements per array and values in all are checked on the raw
 * bytes before anything else (decoding, parsing, validation) runs: a megabyte of keys is refused
 * in about a millisecond instead of holding the event loop for seconds. Stripe's webhook alone keeps
 * its raw bytes (the signature covers them).
 */
function installJsonOnlyBodyParsing(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    // Stripe signs the bytes it sends: its webhook gets them as they came, and nothing is parsed.
    if (request.routeOptions.url === STRIPE_WEBHOOK_ROUTE.url) {
      (request as FastifyRequest & { [RAW_BODY]?: Buffer })[RAW_BODY] = bytes;
      done(null, undefined);
      return;
    }
    if (isBlank(bytes)) {
      done(null, undefined);
      return;
    }
    const problem = jsonShapeProblem(bytes);
    if (problem) {
      done(new ValidationFailedException([{ field: 'body', message: jsonShapeMessage(problem, 'Request body') }]), undefined);
      return;
    }
    parseJson(request, bytes.toString('utf8'), done);
  });
}

/** Only JSON whitespace (or nothing): what a body-less POST with a JSON content type carries. */
function isBlank(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}

function withExtraModules(appModule: DynamicModule, extra: Array<Type | DynamicModule>): DynamicModule {
  @Module({})
  class AppWithExtrasModule {}
  return { module: AppWithExtrasModule, imports: [appModule, ...extra] };
}
