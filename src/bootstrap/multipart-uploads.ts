import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody } from '../common/http/error-body';
import { MULTIPART_ROUTE } from '../common/http/multipart-route';


const JSON_ONLY = Object.freeze(errorBody(415, 'Unsupported content type; send application/json'));

/**
 * Fastify's multipart plugin, registered once for the whole app (its parser is app-wide), and kept
 * to the routes that say they take uploads (@TakesMultipart): everywhere else a multipart body is a 415, as before,
 * rather than reaching a JSON handler as "no body". Each upload route sets its own limits and
 * counts its file while it streams.
 */
export const multipartUploads = fp(async (instance: FastifyInstance) => {
  await instance.register(multipart, { limits: { files: 1, parts: 10, fields: 10, fieldSize: 1024, headerPairs: 50 } });
  instance.addHook('preValidation', (request, reply, done) => {
    if (!request.isMultipart() || (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[MULTIPART_ROUTE] === true) return done();
    void reply.code(415).send(JSON_ONLY);
  });
});
