import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';

const CONSOLE_DIR = join(__dirname, '..', '..', 'console');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

/** How /console is served (CONTRACT §13); the browser test (test/browser/console.e2e-spec.ts) drives it. */
describe('the operator console is served with the service', () => {
  let t: TestApp;
  let tiles: TestApp;

  beforeAll(async () => {
    [t, tiles] = await Promise.all([startTestApp(), startTestApp({ env: { CONSOLE_TILE_URL: 'https://tiles.example.test/osm/{z}/{x}/{y}.png' } })]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), tiles?.close()]);
  });

  it('GET /console and /console/ answer the page, with a policy that allows no inline script and a revalidated cache', async () => {
    for (const url of ['/console', '/console/']) {
      const res = await t.request({ method: 'GET', url });
      expect([url, res.statusCode, res.headers['content-type']]).toEqual([url, 200, 'text/html; charset=utf-8']);
      expect(res.body).toContain('<script type="module" src="/console/js/app.js"></script>');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('every file of console/ is served with its type and the same headers; the page holds no inline script or style', async () => {
    const types: Record<string, string> = {
      '.js': 'application/javascript; charset=utf-8',
      '.css': 'text/css; charset=utf-8',
      '.html': 'text/html; charset=utf-8',
    };
    for (const file of files(CONSOLE_DIR)) {
      const path = relative(CONSOLE_DIR, file).split('\\').join('/');
      const res = await t.request({ method: 'GET', url: `/console/${path}` });
      const type = types[path.slice(path.lastIndexOf('.'))];
      expect([path, res.statusCode, res.headers['content-type'], res.headers['cache-control']]).toEqual([path, 200, type, 'no-cache']);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers.etag).toEqual(expect.any(String));
      const revalidated = await t.request({
        method: 'GET',
        url: `/console/${path}`,
        headers: { 'if-none-match': String(res.headers.etag) },
      });
      expect([path, revalidated.statusCode]).toEqual([path, 304]);
    }
    const page = readFileSync(join(CONSOLE_DIR, 'index.html'), 'utf8');
    expect(page).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(page).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });

  it('a missing file is a 404 in the error shape; nothing outside console/ is reachable', async () => {
    for (const url of ['/console/nothing.js', '/console/../package.json', '/console/%2e%2e/package.json', '/console/.hidden']) {
      const res = await t.request({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
    }
  });

  it('settings.json names the tile server, whose origin alone joins img-src; without one, tile_url is null', async () => {
    expect((await t.request({ method: 'GET', url: '/console/settings.json' })).json()).toEqual({ tile_url: null });
    const res = await tiles.request({ method: 'GET', url: '/console/settings.json' });
    expect(res.json()).toEqual({ tile_url: 'https://tiles.example.test/osm/{z}/{x}/{y}.png' });
    expect(res.headers['content-security-policy']).toContain("img-src 'self' blob: data: https://tiles.example.test;");
  });

  it('is no part of the API: absent from the OpenAPI document', async () => {
    const document = (await t.request({ method: 'GET', url: '/docs-json' })).json();
    expect(Object.keys(document.paths).filter((path) => path.includes('console'))).toEqual([]);
  });

  it('an API path no controller serves says so the way the console recognises ("Cannot GET …")', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/admin/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/^Cannot GET /);
  });
});
