import Fastify, { type FastifyInstance } from 'fastify';
import { MULTIPART_ROUTE } from '../common/http/multipart-route';
import { multipartUploads } from './multipart-uploads';

const BODY = '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--x--\r\n';
const MULTIPART = { 'content-type': 'multipart/form-data; boundary=x' };

async function app(): Promise<FastifyInstance> {
  const fastify = Fastify();
  multipartUploads(fastify);
  fastify.put('/location', async () => ({ ok: true }));
  fastify.post('/upload', { config: { [MULTIPART_ROUTE]: true } }, async (request) => {
    let bytes = 0;
    for await (const part of request.parts()) if (part.type === 'file') for await (const chunk of part.file) bytes += (chunk as Buffer).length;
    return { bytes };
  });
  await fastify.ready();
  return fastify;
}

describe('multipart confined to upload routes', () => {
  let fastify: FastifyInstance;
  beforeAll(async () => {
    fastify = await app();
  });
  afterAll(() => fastify.close());

  it("gives the plugin's request hooks to upload routes only: a JSON route runs none", () => {
    const routes = fastify.printRoutes({ includeHooks: true, commonPrefix: false });
    const [location, upload] = ['location (PUT)', 'upload (POST)'].map((name) => routes.slice(routes.indexOf(name)).split(/\n[└├]/)[0]);
    expect(location).not.toMatch(/onRequest|onResponse/);
    expect(upload).toMatch(/onRequest/);
    expect(upload).toMatch(/onResponse/);
  });

  it('an upload route reads its parts', async () => {
    const res = await fastify.inject({ method: 'POST', url: '/upload', headers: MULTIPART, payload: BODY });
    expect([res.statusCode, res.json()]).toEqual([200, { bytes: 5 }]);
  });

  it("a multipart body anywhere else is Fastify's unsupported media type (the filter renders the contract's 415)", async () => {
    const res = await fastify.inject({ method: 'PUT', url: '/location', headers: MULTIPART, payload: BODY });
    expect([res.statusCode, res.json().code]).toEqual([415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE']);
  });
});
