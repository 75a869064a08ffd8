import { RouteConfig } from '@nestjs/platform-fastify';

/** The route-config key of the routes that take multipart/form-data (the rest answer it 415). */
export const MULTIPART_ROUTE = 'multipart';

/** Marks an upload route: it reads its multipart body itself (request.parts()), counting as it streams. */
export const TakesMultipart = (): MethodDecorator => RouteConfig({ [MULTIPART_ROUTE]: true }) as MethodDecorator;
