import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody } from '../common/http/error-body';

export const BODY_TOO_LARGE_MESSAGE = 'Request body is larger than the allowed size';
const BODY_TOO_LARGE = Object.freeze(errorBody(413, BODY_TOO_LARGE_MESSAGE));

/**
 * How far past the route's body limit the rest of a refused body is still read and discarded.
 * Beyond it the connection is closed at once: reading a body that claims gigabytes to be polite
 * would hand anyone a way to keep the server busy.
 */
export const DRAIN_FACTOR = 4;

/**
 * Answers a body whose Content-Length is over the route's limit before anything reads it, and keeps
 * the connection open so that Node reads and discards the rest of the body after the answer.
 * Fastify's own refusal closes the connection while the client is still sending: a client that
 * writes its whole body before reading (most mobile HTTP stacks) then sees a broken pipe, not the
 * 413 (issue 25). A multipart body is the upload route's to count while it streams (it answers
 * 400 for a file over its own limit), unless it is beyond what is worth draining at all.
 */
export const oversizedBodies = fp(async (instance: FastifyInstance) => {
  instance.addHook('onRequest', (request, reply, done) => {
    const declared = request.headers['content-length'];
    const length = declared === undefined ? NaN : Number(declared);
    const limit = request.routeOptions.bodyLimit ?? instance.initialConfig.bodyLimit ?? Infinity;
    if (!(length > limit)) return done();
    const drainable = length <= limit * DRAIN_FACTOR;
    if (drainable && /^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) return done();
    if (!drainable) void reply.header('connection', 'close');
    void reply.code(413).send(BODY_TOO_LARGE);
  });
});
