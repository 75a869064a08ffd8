import { randomUUID } from 'node:crypto';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

type Operation = { requestBody?: unknown; parameters?: Array<{ in: string; name: string }> };

/**
 * CONTRACT section 2: no request, however malformed, gets a 500. Every operation of the OpenAPI
 * document (so every endpoint, present and future) gets hostile bodies and query values, with the
 * token of a registered user of the role its path suggests.
 */
describe('malformed requests on every documented operation', () => {
  let t: TestApp;
  let passenger: TestUser;
  let driver: TestUser;
  let operations: Array<{ method: string; path: string; op: Operation }>;

  beforeAll(async () => {
    t = await startTestApp();
    passenger = await createUser(t, { walletBalanceMinor: 10_000 });
    driver = await createUser(t, { role: 'driver' });
    const document = (await t.request({ method: 'GET', url: '/docs-json' })).json();
    operations = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
  });
  afterAll(() => t.close());

  const concrete = (path: string): string => path.replace(/\{[^}]+\}/g, () => randomUUID());
  const tokenFor = (path: string): string => (path.includes('/driver/') ? driver.accessToken : passenger.accessToken);

  function expectClientError(label: string, res: { statusCode: number; json: () => unknown }): void {
    expect([label, res.statusCode < 500]).toEqual([label, true]);
    if (res.statusCode >= 400) {
      const body = res.json() as { message?: unknown; statusCode?: unknown };
      expect([label, typeof body.message, body.statusCode]).toEqual([label, 'string', res.statusCode]);
    }
  }

  it('finds the operations', () => {
    expect(operations.filter((o) => o.op.requestBody).length).toBeGreaterThan(5);
  });

  it('hostile JSON bodies get a 4xx in the error shape', async () => {
    const bodies = ['[]', '[{}]', '"text"', '42', 'true', 'null', '{', '{"a":', '{}', '{"__proto__": {"x": 1}}', '{"constructor": {"prototype": {}}}'];
    for (const { method, path } of operations.filter((o) => o.op.requestBody)) {
      for (const payload of bodies) {
        const res = await t.request({
          method: method as 'POST',
          url: concrete(path),
          payload,
          headers: { 'content-type': 'application/json' },
          token: tokenFor(path),
        });
        expectClientError(`${method} ${path} ${payload}`, res);
      }
    }
  });

  it('wrongly typed and oversized fields get a 4xx', async () => {
    const values: unknown[] = [null, -1, 1e308, 'x'.repeat(10_000), [], {}, true, '\u0000', '1; DROP TABLE users'];
    for (const { method, path } of operations.filter((o) => o.op.requestBody)) {
      for (const value of values) {
        const payload = {
          status: value,
          amount: value,
          latitude: value,
          longitude: value,
          phone: value,
          email: value,
          refresh_token: value,
          is_online: value,
          pickup: value,
          role: value,
        };
        const res = await t.request({ method: method as 'POST', url: concrete(path), payload, token: tokenFor(path) });
        expectClientError(`${method} ${path} ${JSON.stringify(value).slice(0, 20)}`, res);
      }
    }
  });

  it('hostile query values and path ids get a 4xx (or a 200), never a 500', async () => {
    const values = ['x', '-1', '1e309', 'NaN', '', '%00', 'a'.repeat(500)];
    for (const { path, op } of operations.filter((o) => o.method === 'GET')) {
      const names = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      for (const value of values) {
        const query = names.map((n) => `${n}=${encodeURIComponent(value)}`).join('&');
        const url = path.replace(/\{[^}]+\}/g, encodeURIComponent(value) || 'x') + (query ? `?${query}` : '');
        const res = await t.request({ method: 'GET', url, token: tokenFor(path) });
        expectClientError(`GET ${url.slice(0, 80)}`, res);
      }
    }
  });
});
