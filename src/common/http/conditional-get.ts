import type { FastifyReply } from 'fastify';

/** A body sent as is, with its entity tag and its gzip (each made once, by whoever holds the body). */
export interface TaggedBody {
  readonly bytes: Buffer;
  readonly etag: string;
  gzip(): Buffer;
}

/** The tag without its weak prefix: If-None-Match compares weakly (RFC 9110 §13.1.2). */
function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** Whether an If-None-Match header names the entity tag (or is `*`). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const wanted = opaque(etag);
  for (const part of ifNoneMatch.split(',')) {
    const tag = part.trim();
    if (tag === '*' || opaque(tag) === wanted) return true;
  }
  return false;
}

/** Whether Accept-Encoding allows gzip: `gzip` (or `x-gzip`), else `*`, with a q above 0 (RFC 9110 §12.5.3). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  let star: boolean | undefined;
  for (const part of acceptEncoding.split(',')) {
    const [coding, ...params] = part.split(';');
    const name = coding!.trim().toLowerCase();
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (name === '*') star = allowed;
    else return allowed;
  }
  return star ?? false;
}

/**
 * Answers a GET with a tagged body: 304 and no body when If-None-Match names its tag; else 200 with
 * the gzip when Accept-Encoding allows it, the plain bytes otherwise. Either way the ETag, and Vary
 * on Accept-Encoding (a cache must not give the gzip to a client that did not ask for it).
 */
export function sendTagged(reply: FastifyReply, body: TaggedBody, ifNoneMatch: string | undefined, acceptEncoding: string | undefined): FastifyReply {
  reply.header('etag', body.etag).header('vary', 'Accept-Encoding').header('cache-control', 'private, no-cache');
  if (etagMatches(ifNoneMatch, body.etag)) return reply.code(304).send();
  reply.header('content-type', 'application/json; charset=utf-8');
  if (acceptsGzip(acceptEncoding)) return reply.header('content-encoding', 'gzip').send(body.gzip());
  return reply.send(body.bytes);
}
