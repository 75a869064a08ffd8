import { exportOpenApiDocument } from '../../src/bootstrap/openapi';
import { LIVE_EVENT_TYPES } from '../../src/bootstrap/openapi-description';
import { startTestApp, TestApp } from '../support/test-app';

type Operation = { security?: Array<Record<string, unknown>>; responses: Record<string, { content?: unknown }> };

function operations(document: { paths: Record<string, Record<string, Operation>> }): Array<[string, Operation]> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
  );
}

describe('OpenAPI document and Swagger UI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves Swagger UI at /docs', async () => {
    const res = await t.request({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger-ui');
    // Authorize survives a page reload.
    const init = await t.request({ method: 'GET', url: '/docs/swagger-ui-init.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toMatch(/"persistAuthorization":\s*true/);
  });

  it('GET / leads to the explorer (a browser opening the bare address lands on /docs)', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.request({ method, url: '/' });
      expect([method, res.statusCode, res.headers.location]).toEqual([method, 302, '/docs']);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('the explorer opens with the sign-in recipe, then the conventions and every live event, one table row each', async () => {
    const { description } = (await t.request({ method: 'GET', url: '/docs-json' })).json().info as { description: string };
    const at = (text: string): number => description.indexOf(text);
    expect(at('**Sign in first**')).toBeGreaterThan(0);
    expect(at('**Sign in first**')).toBeLessThan(at('**Conventions.**'));
    expect(at('OTP for +15551234567: 482913')).toBeLessThan(at('**Conventions.**'));
    expect(at('**Authorize**')).toBeLessThan(at('**Conventions.**'));
    const rows = [...description.matchAll(/^\| `([a-z_]+)`/gm)].map((m) => m[1]);
    const contractEvents = ['ride_requested', 'bid_submitted', 'ride_accepted', 'ride_status_changed', 'ride_cancelled', 'driver_location', 'chat_message'];
    expect(rows).toEqual(expect.arrayContaining([...contractEvents, 'ride_snapshot', 'ride_tipped', 'ride_rated']));
    expect(rows).toEqual(LIVE_EVENT_TYPES);
    expect(new Set(rows).size).toBe(rows.length);
  });

  it('serves the document at /docs-json with bearer auth declared and public routes marked', async () => {
    const res = await t.request({ method: 'GET', url: '/docs-json' });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(document.security).toEqual([{ bearer: [] }]);
    expect(document.components.schemas.ErrorResponseDto.required).toEqual(['statusCode', 'error', 'message']);

    const categories = document.paths['/api/v1/rides/categories'].get;
    expect(categories.security).toEqual([{}]);
    expect(categories.responses['401']).toBeUndefined();
    expect(document.paths['/health/live'].get.security).toEqual([{}]);
  });

  it('puts every operator endpoint under the one "operators" tag, behind the bearer scheme an operator token authorizes', async () => {
    const document = (await t.request({ method: 'GET', url: '/docs-json' })).json();
    const admin = operations(document).filter(([name]) => name.includes(' /api/v1/admin/'));
    expect(admin.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'GET /api/v1/admin/rides',
        'POST /api/v1/admin/rides/{ride_id}/cancel',
        'PATCH /api/v1/admin/promo-codes/{code}',
        'GET /api/v1/admin/live',
      ]),
    );
    for (const [name, op] of admin) {
      const { tags, security } = op as Operation & { tags?: string[] };
      // No security of its own: the document's `bearer` requirement, the one the Authorize button fills.
      expect([name, tags, security]).toEqual([name, ['operators'], undefined]);
      expect([name, Object.keys(op.responses)]).toEqual([name, expect.arrayContaining(['401', '403'])]);
    }
    // Every operation sits under exactly one of the document's tags (Swagger UI lists it once).
    const tagNames = (document.tags as Array<{ name: string }>).map((tag) => tag.name);
    for (const [name, op] of operations(document)) {
      const tags = (op as Operation & { tags?: string[] }).tags ?? [];
      expect([name, tags.length, tags.every((tag) => tagNames.includes(tag))]).toEqual([name, 1, true]);
    }
    const elsewhere = operations(document).filter(([name]) => !name.includes(' /api/v1/admin/'));
    for (const [name, op] of elsewhere) expect([name, (op as Operation & { tags?: string[] }).tags?.includes('operators')]).toEqual([name, false]);
  });

  it('documents the shared error responses on every operation, with the error schema', async () => {
    const document = (await t.request({ method: 'GET', url: '/docs-json' })).json();
    for (const [name, op] of operations(document)) {
      expect([name, op.responses['500']?.content]).toEqual([
        name,
        { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponseDto' }, examples: expect.any(Object) } },
      ]);
      const isPublic = op.security?.some((r) => Object.keys(r).length === 0);
      if (!isPublic) expect([name, Boolean(op.responses['401'])]).toEqual([name, true]);
    }
  });

  it('the offline export (npm run openapi) equals the served document, without a database', async () => {
    const served = (await t.request({ method: 'GET', url: '/docs-json' })).json();
    const exported = JSON.parse(JSON.stringify(await exportOpenApiDocument()));
    expect(Object.keys(exported.paths).sort()).toEqual(Object.keys(served.paths).sort());
    expect(exported).toEqual(served);
  });
});
