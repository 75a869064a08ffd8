import fc from 'fast-check';
import type { OpenAPIObject } from '@nestjs/swagger';
import { OpenApiDocument, sampleFromSchema } from '../foundation/openapi-validator';

/**
 * What an attacker sends, as fast-check arbitraries over the operations of the OpenAPI document:
 * hostile strings (control characters including U+0000, lone surrogates, overlong text), numbers at
 * the edges written as raw JSON (1e308, -0, 2^53+1, 1e309, NaN-like strings), wrong types at any
 * depth of a body that is otherwise valid (so that they reach the handlers and the database), huge
 * key counts and long arrays around the limits, deep nesting, prototype keys, wrong content types.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export interface Operation {
  method: Method;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  /** Valid bodies: the document's named examples, else the sample Swagger UI pre-fills. */
  samples: unknown[];
}

export function operationsOf(document: OpenAPIObject): Operation[] {
  const doc = document as unknown as OpenApiDocument;
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'delete', 'patch'] as const) {
      const op = item[method];
      if (!op) continue;
      const params = (op.parameters ?? []) as Array<{ in: string; name: string }>;
      const media = (
        op.requestBody as
          { content?: Record<string, { schema?: { $ref?: string }; examples?: Record<string, { value: unknown }>; example?: unknown }> } | undefined
      )?.content?.['application/json'];
      const ref = media?.schema?.$ref;
      const schema = ref ? (document.components?.schemas?.[ref.split('/').pop()!] as { properties?: object }) : undefined;
      const samples = !media
        ? []
        : media.examples
          ? Object.values(media.examples).map((e) => e.value)
          : [media.example ?? sampleFromSchema(media.schema ?? {}, doc)];
      ops.push({
        method: method.toUpperCase() as Method,
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: Object.keys(schema?.properties ?? {}),
        samples,
      });
    }
  }
  return ops;
}

export const HOSTILE_STRINGS = [
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e309',
  '-1e309',
  '0x10',
  '1_000',
  '99999999999999999999999',
  '-9223372036854775809',
  '5e-324',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '../../../etc/passwd',
  '..%2F..%2F',
  '%00',
  '\u0000',
  'a\u0000b',
  'a@b.c\u0000',
  '\u202e',
  '\ud800',
  'x\udfffy',
  '\ude00\ud83d',
  '😀'.repeat(50),
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '${7*7}',
  '__proto__',
  'constructor',
  'prototype',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];
/** Raw JSON number tokens: -0, 2^53+1 and 1e309 cannot be written through JSON.stringify. */
const EDGE_NUMBERS = [
  '0',
  '-0',
  '-1',
  '1',
  '0.1',
  '1e308',
  '-1e308',
  '1e309',
  '-1e309',
  '5e-324',
  '-1e-400',
  '9007199254740993',
  '-9007199254740993',
  '2147483648',
  '9223372036854775808',
  '1e-7',
  '12.345',
  '100000000000000000000000000000',
];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
export const EXTRA_KEYS = [...PROTO_KEYS, 'role', 'fare', 'status', 'driver_id', 'balance', 'is_verified', 'is_blocked', 'id', 'user_id'];

/** encodeURIComponent throws on lone surrogates; those go on the wire as their raw UTF-8-ish escape instead. */
export function encode(value: string): string {
  return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd')).replace(/%EF%BF%BD/g, '%ED%A0%80');
}

const controlString = fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)), maxLength: 20 });
const surrogateString = fc
  .string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 3 })
  .chain((lone) => fc.tuple(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })).map(([a, b]) => a + lone + b));
const longString = fc.integer({ min: 256, max: 70_000 }).map((n) => 'x'.repeat(n));
export const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  controlString,
  surrogateString,
  longString,
);
const scalarText = fc.oneof(
  hostileString.map((s) => JSON.stringify(s)),
  fc.constantFrom(...EDGE_NUMBERS),
  fc.double().map((d) => (Number.isFinite(d) ? JSON.stringify(d) : '1e309')),
  fc.integer().map(String),
  fc.constantFrom('true', 'false', 'null'),
);
const protoValue = fc.constantFrom('{"polluted":"yes"}', '{"prototype":{"polluted":"yes"}}', '"yes"', '[]', 'null');

/** A JSON value as text, so that `__proto__` can be an own key and nesting goes past what JSON.stringify builds. */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarText,
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 8 })), tie('value')), { maxLength: 3 })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value;

/** Around and far past the limits (1,000 keys per object, 10,000 elements per array). */
const manyKeys = fc.constantFrom(999, 1000, 1001, 20_000, 90_000).map((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`);
const longArray = fc.constantFrom(9_999, 10_000, 10_001, 100_000).map((n) => `[${'0,'.repeat(n - 1)}0]`);
const deepNesting = fc
  .tuple(fc.integer({ min: 20, max: 200 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));
const bulkyValue = fc.oneof(manyKeys, longArray, deepNesting);

/** The leaf and branch paths of a JSON value (keys of objects, indexes of arrays). */
function pathsOf(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [prefix];
  const children = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...children.flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
}

/** JSON text of `value` with the value at `path` replaced by the raw text `replacement`. */
function withReplacement(value: unknown, path: Array<string | number>, replacement: string): string {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return `[${value.map((v, i) => (i === head ? withReplacement(v, rest, replacement) : JSON.stringify(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([k, v]) => `${JSON.stringify(k)}:${k === head ? withReplacement(v, rest, replacement) : JSON.stringify(v)}`,
  );
  return `{${entries.join(',')}}`;
}

/** Characters slipped into an otherwise valid string: PostgreSQL refuses U+0000; lone surrogates are not UTF-8. */
const INJECTED = ['\u0000', '\ud800', '\udfff', '\u0001', '\u001b', '\u007f', '\u202e', '\ufeff'];

function valueAt(value: unknown, path: Array<string | number>): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);
}

/**
 * A valid body with one value, at any depth, replaced by a hostile one (wrong type, edge number,
 * something bulky), or with a hostile character slipped into one of its strings: the rest stays
 * valid, so the request reaches the handler and the database as an attacker's would.
 */
function mutatedSample(sample: unknown): fc.Arbitrary<string> {
  const paths = pathsOf(sample);
  const replacement = fc.oneof(
    { weight: 4, arbitrary: jsonText },
    { weight: 2, arbitrary: fc.constantFrom(...EDGE_NUMBERS) },
    { weight: 1, arbitrary: bulkyValue },
  );
  const replaced = fc.tuple(fc.constantFrom(...paths), replacement).map(([path, text]) => withReplacement(sample, path, text));
  const strings = paths.filter((path) => typeof valueAt(sample, path) === 'string');
  if (strings.length === 0) return replaced;
  const injected = fc.tuple(fc.constantFrom(...strings), fc.constantFrom(...INJECTED), fc.nat()).map(([path, char, at]) => {
    const text = valueAt(sample, path) as string;
    const i = at % (text.length + 1);
    return withReplacement(sample, path, JSON.stringify(text.slice(0, i) + char + text.slice(i)));
  });
  return fc.oneof({ weight: 3, arbitrary: replaced }, { weight: 2, arbitrary: injected });
}

export function bodyFor(op: Operation): fc.Arbitrary<string | undefined> {
  const fieldNames = op.bodyFields.length ? fc.constantFrom(...op.bodyFields) : fc.constantFrom(...EXTRA_KEYS);
  const objectBody = fc
    .tuple(
      fc.uniqueArray(fieldNames, { maxLength: Math.max(1, op.bodyFields.length) }),
      fc.array(fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 10 })), { maxLength: 2 }),
      fc.array(fc.tuple(fc.constantFrom(...PROTO_KEYS), protoValue), { maxLength: 1 }),
    )
    .chain(([fields, extras, protos]) =>
      fc.tuple(
        fc.array(jsonText, { minLength: fields.length + extras.length, maxLength: fields.length + extras.length }),
        fc.constant(fields),
        fc.constant(extras),
        fc.constant(protos),
      ),
    )
    .map(([values, fields, extras, protos]) => {
      const keys = [...fields, ...extras];
      const entries = keys.map((k, i) => `${JSON.stringify(k)}:${values[i]}`);
      entries.push(...protos.map(([k, v]) => `${JSON.stringify(k)}:${v}`));
      return `{${entries.join(',')}}`;
    });
  const arbitraries: Array<fc.WeightedArbitrary<string | undefined>> = [
    { weight: 4, arbitrary: objectBody },
    { weight: 2, arbitrary: jsonText },
    { weight: 1, arbitrary: bulkyValue },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":1,}', 'nul', '\u0000', '{"a":"\\ud800"}', '"\\u0000"', '1e99999', 'null', '[]', '{}') },
    { weight: 1, arbitrary: fc.constant(undefined) },
  ];
  if (op.samples.length) arbitraries.push({ weight: 6, arbitrary: fc.constantFrom(...op.samples).chain(mutatedSample) });
  return fc.oneof(...arbitraries);
}

export const CONTENT_TYPES = [
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

export function segmentValue(ids: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.uuid().map(encode),
    fc.constantFrom(...ids),
    hostileString.filter((s) => s.length < 2000).map(encode),
    fc.constantFrom('..', '../..', '%2e%2e%2f', '.', '%', '%zz', '%00', '1', '-1', '99999999999999999999', '1e309'),
  );
}

export function queryFor(op: Operation): fc.Arbitrary<string> {
  const names = fc.oneof(
    { weight: 4, arbitrary: op.queryParams.length ? fc.constantFrom(...op.queryParams) : fc.constantFrom('page', 'limit') },
    { weight: 1, arbitrary: fc.constantFrom(...EXTRA_KEYS, 'limit[]', 'page[0]', 'a[b][c]') },
  );
  const value = fc.oneof(
    hostileString.filter((s) => s.length < 5000),
    fc.constantFrom(...EDGE_NUMBERS),
  );
  return fc.array(fc.tuple(names, value), { maxLength: 5 }).map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'));
}
