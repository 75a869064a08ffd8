import { ModulesContainer, NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from '../app.module';
import { isAdminRoute } from '../common/auth/admin-routes';
import { IS_PUBLIC, REQUIRES_REGISTRATION, ROLES } from '../common/auth/auth.decorators';
import { OPEN_TO_OPERATORS, OPERATOR_ACTION } from '../common/auth/operator-action.decorator';
import type { OperatorAction } from '../common/auth/operator-permissions';
import { ErrorResponseDto } from '../common/http/error-response.dto';
import { toOpenApi31 } from './openapi-3-1';
import { API_DESCRIPTION } from './openapi-description';
import { describeRouteGuards, documentResponses, refreshRideRequestExamples, RouteGuards } from './openapi-responses';
import { TAGS } from './openapi-tags';
import { AppConfig } from '../config/app-config';
import { REALTIME_PATH } from '../modules/realtime/realtime.gateway';
import { CONSOLE_PATH } from './console';

export const API_PREFIX = 'api/v1';
/** Probes stay at the root, where load balancers and orchestrators look for them. */
export const UNPREFIXED_ROUTES = ['health', 'health/live', 'health/ready'];
export const DOCS_PATH = 'docs';
export const DOCS_JSON_PATH = 'docs-json';

/**
 * Where a person starts, as the start-up log names it: every address is served (a process test asks
 * each one). A host listening on every interface is named as localhost.
 */
export function startUpAddresses(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const http = `http://${name}:${port}`;
  return (
    `Swagger UI ${http}/${DOCS_PATH} (OpenAPI ${http}/${DOCS_JSON_PATH}); the API under /${API_PREFIX}, e.g. ${http}/${API_PREFIX}/rides/categories; ` +
    `health ${http}/health; operator console ${http}${CONSOLE_PATH}; live events ws://${name}:${port}${REALTIME_PATH}`
  );
}

/** Routing shared by the served app and the offline document export, so both describe the same paths. */
export function applyRouting(app: NestFastifyApplication): void {
  app.setGlobalPrefix(API_PREFIX, { exclude: UNPREFIXED_ROUTES });
}

export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Ride-hailing API')
    .setDescription(API_DESCRIPTION)
    .setVersion('1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .addSecurityRequirements('bearer')
    .addServer('/')
    .build();
  for (const [name, description] of TAGS) config.tags = [...(config.tags ?? []), { name, description }];
  // Tags come from TAGS alone: @nestjs/swagger would also tag every controller without a class-level
  // tag by its name, listing each operator endpoint a second time outside "operators".
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorResponseDto], autoTagControllers: false });
  const guards = routeGuards(app);
  documentCommonErrors(document, guards);
  documentResponses(document, guards);
  return toOpenApi31(document);
}

/** The explorer at /docs, its document at /docs-json, and `/` leading to it: the address a person opens first. */
export function setupOpenApi(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.get('/', (_request, reply) => reply.redirect(`/${DOCS_PATH}`, 302));
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: DOCS_JSON_PATH,
    swaggerOptions: { persistAuthorization: true },
    patchDocumentOnRequest: (_req, _res, document) => refreshRideRequestExamples(document),
  });
}

/**
 * The document as `/docs-json` serves it, without a database: preview mode registers the modules
 * and controllers but calls no provider factory (no connection, no migrations).
 */
export async function exportOpenApiDocument(): Promise<OpenAPIObject> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(AppConfig.fromEnv({})), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    applyRouting(app);
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;
const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponseDto' } } };

/**
 * Failures every operation shares come from the framework, not the controller (validation, body
 * parsing, the auth guard, unexpected errors); they are documented here once for all operations.
 * A response a controller documents itself is kept.
 */
function documentCommonErrors(document: OpenAPIObject, guards: Map<string, RouteGuards>): void {
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const responses = operation.responses;
      const add = (status: string, description: string): void => {
        responses[status] ??= { description, content: ERROR_CONTENT };
      };
      // Any write refuses a body field it does not declare, so a write without a body has input too.
      const hasInput = Boolean(operation.requestBody) || Boolean(operation.parameters?.length) || method !== 'get';
      if (hasInput) add('400', 'Validation failed (`details` names each field) or malformed JSON');
      const isPublic = operation.security?.some((requirement) => Object.keys(requirement).length === 0) ?? false;
      if (!isPublic) add('401', 'Missing, malformed, expired or wrong-type access token');
      const guard = operation.operationId ? guards.get(operation.operationId) : undefined;
      const forbidden = guard ? describeRouteGuards(guard) : undefined;
      if (forbidden) add('403', forbidden);
      if (operation.requestBody) {
        add('413', 'Request body is larger than the allowed size');
        add('415', 'Content-Type is not application/json');
      }
      add('500', 'Unexpected failure; the message and `correlation_id` carry the request id');
    }
  }
}

/** Each route's @Roles / @RequiresRegistration / operator rules, by the operationId @nestjs/swagger gives it (Controller_method). */
function routeGuards(app: NestFastifyApplication): Map<string, RouteGuards> {
  const guards = new Map<string, RouteGuards>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller) continue;
      for (const key of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[key];
        if (key === 'constructor' || typeof handler !== 'function') continue;
        const read = <T>(metadataKey: string): T | undefined =>
          (Reflect.getMetadata(metadataKey, handler) ?? Reflect.getMetadata(metadataKey, controller)) as T | undefined;
        guards.set(`${controller.name}_${key}`, {
          roles: read<string[]>(ROLES),
          requiresRegistration: read<boolean>(REQUIRES_REGISTRATION) === true,
          isPublic: read<boolean>(IS_PUBLIC) === true,
          admin: isAdminRoute(controller, handler),
          operatorAction: read<OperatorAction>(OPERATOR_ACTION),
          openToOperators: read<boolean>(OPEN_TO_OPERATORS) === true,
        });
      }
    }
  }
  return guards;
}
