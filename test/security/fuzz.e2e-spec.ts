import fc from 'fast-check';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { LightMyRequestResponse } from 'fastify';
import { buildOpenApiDocument } from '../../src/bootstrap/openapi';
import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { bookRide, onlineDriver, placeBid } from '../rides/ride-helpers';

/**
 * Property-based fuzzing of every operation in the OpenAPI document. CI runs a fixed seed;
 * `npm run fuzz -- --runs N` (FUZZ_RUNS, optional FUZZ_SEED) runs a bigger campaign.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 42);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
interface Operation {
  method: Method;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
}
interface Counts {
  users: number;
  rides: number;
  bids: number;
  wallets: number;
  ledger: number;
}

/** Operations that end the session of the token that calls them: fuzzed without a valid token only. */
const SESSION_ENDING = new Set(['DELETE /api/v1/auth/account', 'POST /api/v1/auth/logout']);

function operationsOf(document: OpenAPIObject): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'delete', 'patch'] as const) {
      const op = item[method];
      if (!op) continue;
      const params = (op.parameters ?? []) as { in: string; name: string }[];
      const content = (op.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined)?.content;
      const ref = content?.['application/json']?.schema?.$ref;
      const schema = ref ? (document.components?.schemas?.[ref.split('/').pop()!] as { properties?: object }) : undefined;
      ops.push({
        method: method.toUpperCase() as Method,
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: Object.keys(schema?.properties ?? {}),
      });
    }
  }
  return ops;
}

const HOSTILE_STRINGS = [
  '', ' ', 'NaN', 'Infinity', '-Infinity', '-0', '1e309', '-1e309', '0x10', '1_000', '99999999999999999999999',
  '-9223372036854775809', '5e-324', 'null', 'undefined', 'true', '[]', '{}', '../../../etc/passwd', '..%2F..%2F',
  '%00', '\u0000', '\u202e', '\ud800', '😀'.repeat(50), "' OR 1=1 --", '<script>alert(1)</script>', '${7*7}',
  '__proto__', 'constructor', 'prototype', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
];
const HOSTILE_NUMBERS = [0, -1, 1, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER - 2, 0.1, 2 ** 31, 2 ** 63];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const EXTRA_KEYS = [...PROTO_KEYS, 'role', 'fare', 'status', 'driver_id', 'balance', 'is_verified', 'is_blocked', 'id', 'user_id'];

/** encodeURIComponent throws on lone surrogates; those go on the wire as their raw UTF-8-ish escape instead. */
function encode(value: string): string {
  return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd')).replace(/%EF%BF%BD/g, '%ED%A0%80');
}

const controlString = fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)), maxLength: 20 });
const longString = fc.integer({ min: 256, max: 70_000 }).map((n) => 'x'.repeat(n));
const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  controlString,
  longString,
);
const hostileScalar = fc.oneof(hostileString, fc.constantFrom(...HOSTILE_NUMBERS), fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
const protoValue = fc.constantFrom('{"polluted":"yes"}', '{"prototype":{"polluted":"yes"}}', '"yes"', '[]', 'null');

/** A JSON value as text, so that `__proto__` can be an own key and nesting goes past what JSON.stringify builds. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileScalar.map((v) => JSON.stringify(v)),
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 8 })), tie('value')), { maxLength: 3 })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value;

const deepNesting = fc
  .tuple(fc.integer({ min: 20, max: 200 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));

function bodyFor(op: Operation): fc.Arbitrary<string | undefined> {
  const fieldNames = op.bodyFields.length ? fc.constantFrom(...op.bodyFields) : fc.constantFrom(...EXTRA_KEYS);
  const objectBody = fc
    .tuple(
      fc.uniqueArray(fieldNames, { maxLength: Math.max(1, op.bodyFields.length) }),
      fc.array(fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 10 })), { maxLength: 2 }),
      fc.array(fc.tuple(fc.constantFrom(...PROTO_KEYS), protoValue), { maxLength: 1 }),
    )
    .chain(([fields, extras, protos]) =>
      fc.tuple(fc.array(jsonText, { minLength: fields.length + extras.length, maxLength: fields.length + extras.length }), fc.constant(fields), fc.constant(extras), fc.constant(protos)),
    )
    .map(([values, fields, extras, protos]) => {
      const keys = [...fields, ...extras];
      const entries = keys.map((k, i) => `${JSON.stringify(k)}:${values[i]}`);
      entries.push(...protos.map(([k, v]) => `${JSON.stringify(k)}:${v}`));
      return `{${entries.join(',')}}`;
    });
  return fc.oneof(
    { weight: 6, arbitrary: objectBody },
    { weight: 2, arbitrary: jsonText },
    { weight: 1, arbitrary: deepNesting },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":1,}', 'nul', '\u0000', '{"a":"\\ud800"}', '"\\u0000"', '1e99999') },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  '',
];

function segmentValue(ids: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.uuid().map(encode),
    fc.constantFrom(...ids),
    hostileString.filter((s) => s.length < 2000).map(encode),
    fc.constantFrom('..', '../..', '%2e%2e%2f', '.', '%', '%zz', '%00', '1', '-1', '99999999999999999999', '1e309'),
  );
}

function queryFor(op: Operation): fc.Arbitrary<string> {
  const names = fc.oneof(
    { weight: 4, arbitrary: op.queryParams.length ? fc.constantFrom(...op.queryParams) : fc.constantFrom('page', 'limit') },
    { weight: 1, arbitrary: fc.constantFrom(...EXTRA_KEYS, 'limit[]', 'page[0]', 'a[b][c]') },
  );
  const value = fc.oneof(hostileString.filter((s) => s.length < 5000), fc.constantFrom(...HOSTILE_NUMBERS).map(String));
  return fc
    .array(fc.tuple(names, value), { maxLength: 5 })
    .map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'));
}

type Auth = 'none' | 'passenger' | 'driver' | 'garbage';

interface Case {
  op: Operation;
  url: string;
  body: string | undefined;
  contentType: string;
  auth: Auth;
}

function caseArbitrary(ops: Operation[], ids: string[]): fc.Arbitrary<Case> {
  return fc.constantFrom(...ops).chain((op) =>
    fc
      .record({
        segments: fc.array(segmentValue(ids), { minLength: op.pathParams.length, maxLength: op.pathParams.length }),
        query: queryFor(op),
        body: bodyFor(op),
        contentType: fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) }),
        auth: fc.constantFrom<Auth>('none', 'passenger', 'passenger', 'driver', 'driver', 'garbage'),
      })
      .map(({ segments, query, body, contentType, auth }) => {
        let i = 0;
        const path = op.path.replace(/\{[^}]+\}/g, () => segments[i++]!);
        const safeAuth: Auth = SESSION_ENDING.has(`${op.method} ${op.path}`) && (auth === 'passenger' || auth === 'driver') ? 'garbage' : auth;
        return { op, url: query ? `${path}?${query}` : path, body, contentType, auth: safeAuth };
      }),
  );
}

describe('fuzzing every OpenAPI operation (fast-check)', () => {
  let t: TestApp;
  let passenger: TestUser;
  let driver: TestUser;
  let ops: Operation[];
  let ids: string[];

  beforeAll(async () => {
    t = await startTestApp();
    ops = operationsOf(buildOpenApiDocument(t.app));
    passenger = await createUser(t, { walletBalanceMinor: 10_000 });
    driver = await onlineDriver(t);
    // Real objects of another passenger, so that fuzzed paths also reach rows the caller may not see.
    const owner = await createUser(t);
    const ride = await bookRide(t, owner);
    const bid = await placeBid(t, driver, ride.id);
    ids = [ride.id, bid.id];
  });
  afterAll(() => t?.close());

  async function counts(): Promise<Counts> {
    const [row] = await t.db.query(
      `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM rides)::int AS rides,
              (SELECT count(*) FROM bids)::int AS bids, (SELECT count(*) FROM wallets)::int AS wallets,
              (SELECT count(*) FROM wallet_ledger_entries)::int AS ledger`,
    );
    return row as Counts;
  }

  function tokenFor(auth: Auth): string | undefined {
    if (auth === 'passenger') return passenger.accessToken;
    if (auth === 'driver') return driver.accessToken;
    if (auth === 'garbage') return 'eyJhbGciOiJub25lIn0.eyJzdWIiOjF9.';
    return undefined;
  }

  function describeCase(c: Case, res: LightMyRequestResponse): string {
    return `${c.op.method} ${c.url.slice(0, 300)} [${c.auth}, ${c.contentType}] body=${(c.body ?? '').slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  }

  it('covers every operation of the document', () => {
    expect(ops.length).toBeGreaterThanOrEqual(20);
    for (const op of ops) expect(op.path.startsWith('/api/v1/') || op.path.startsWith('/health/')).toBe(true);
  });

  it('regression (found with seed 7): a bid amount printed in exponent form is a 400, not a TypeError and a 500', async () => {
    const url = `/api/v1/driver/rides/${ids[0]}/bid`;
    for (const amount of ['1e-7', '5e-324', '7e-323', '1.5e-10', '12.345']) {
      const res = await t.request({ method: 'POST', url, payload: `{"amount":${amount},"eta_minutes":3}`, headers: { 'content-type': 'application/json' }, token: driver.accessToken });
      expect([amount, res.statusCode]).toEqual([amount, 400]);
      expect(res.json().details).toContainEqual({ field: 'amount', message: expect.any(String) });
    }
    const fine = await t.request({ method: 'POST', url, payload: { amount: 12.34, eta_minutes: 3 }, token: driver.accessToken });
    expect(fine.statusCode).toBe(201);
    expect(fine.json()).toMatchObject({ amount: 12.34 });
  });

  it(
    `${RUNS} hostile requests: never a 5xx, 4xx always in the error shape, a rejected request changes no row`,
    async () => {
      let before = await counts();
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(caseArbitrary(ops, ids), async (c) => {
          const headers: Record<string, string> = {};
          if (c.body !== undefined && c.contentType) headers['content-type'] = c.contentType;
          const res = await t.request({
            method: c.op.method,
            url: c.url,
            headers,
            ...(c.body !== undefined ? { payload: c.body } : {}),
            token: tokenFor(c.auth),
          });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const after = await counts();
          const changed = JSON.stringify(after) !== JSON.stringify(before);
          const rejectedBefore = before;
          before = after;
          if (res.statusCode >= 500) throw new Error(`5xx: ${describeCase(c, res)}`);
          if (res.statusCode >= 400) {
            let body: any;
            try {
              body = res.json();
            } catch {
              throw new Error(`error body is not JSON: ${describeCase(c, res)}`);
            }
            const shapeOk =
              body !== null && typeof body === 'object' && body.statusCode === res.statusCode && typeof body.error === 'string' &&
              typeof body.message === 'string' &&
              Object.keys(body).every((k) => ['statusCode', 'error', 'message', 'details'].includes(k)) &&
              (body.details === undefined ||
                (Array.isArray(body.details) && body.details.every((d: any) => typeof d?.field === 'string' && typeof d?.message === 'string')));
            if (!shapeOk) throw new Error(`error shape: ${describeCase(c, res)}`);
            if (changed) throw new Error(`rows changed ${JSON.stringify(rejectedBefore)} → ${JSON.stringify(after)}: ${describeCase(c, res)}`);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      const sent = [...statuses.values()].reduce((a, b) => a + b, 0);
      const serverErrors = [...statuses].filter(([status]) => status >= 500).reduce((a, [, n]) => a + n, 0);
      process.stdout.write(`fuzz: ${sent} requests (seed ${SEED}), ${serverErrors} 5xx; by status ${JSON.stringify(Object.fromEntries(statuses))}\n`);
      // Nothing leaked onto Object.prototype in this process (the app runs in it).
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
      // The campaign reached the handlers, not only the validation layer.
      expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
      expect(statuses.get(400)).toBeGreaterThan(0);
    },
    Math.max(170_000, RUNS * 40),
  );
});
