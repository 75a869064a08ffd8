import type { OpenAPIObject } from '@nestjs/swagger';

type Json = Record<string, unknown>;

/** Values that are data, not schemas: never rewritten. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const', 'x-example']);
const COMPOSITIONS = ['oneOf', 'anyOf', 'allOf'] as const;
const NULL: Json = Object.freeze({ type: 'null' });

/**
 * @nestjs/swagger writes OAS 3.0 schemas, where `nullable: true` beside `$ref`, `oneOf` or `allOf`
 * means something to lenient readers and nothing to strict ones (3.0.3: nullable only widens a
 * `type` in the same object), so code generators typed nullable objects as never null. OAS 3.1
 * (JSON Schema) says it one way every reader agrees on: `type: [T, 'null']`, or a composition with a
 * `{type: 'null'}` branch. Applied to the finished document, so every DTO (whoever owns it) gets it.
 */
export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  const converted = convert(document) as OpenAPIObject;
  converted.openapi = '3.1.0';
  return converted;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function convert(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convert);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = DATA_KEYS.has(key) ? value : convert(value);
  return 'nullable' in out ? withoutNullable(out) : out;
}

function withoutNullable(schema: Json): Json {
  const { nullable, ...rest } = schema;
  if (nullable !== true) return rest;
  if (typeof rest.$ref === 'string') {
    // 3.1 allows siblings of $ref, but one reading for all: the annotations stay outside the union.
    const { $ref, type: _type, ...annotations } = rest;
    return { ...annotations, anyOf: [{ $ref }, NULL] };
  }
  const composition = COMPOSITIONS.find((key) => Array.isArray(rest[key]));
  if (composition) {
    // A `type: object` next to the union would exclude null again: the branches carry the type.
    const { type: _type, [composition]: branches, ...annotations } = rest;
    const list = branches as Json[];
    if (composition === 'allOf') return { ...annotations, anyOf: [list.length === 1 ? list[0]! : { allOf: list }, NULL] };
    return { ...annotations, [composition]: [...list, NULL] };
  }
  if (typeof rest.type === 'string') {
    const out: Json = { ...rest, type: [rest.type, 'null'] };
    if (Array.isArray(rest.enum) && !rest.enum.includes(null)) out.enum = [...rest.enum, null];
    return out;
  }
  return rest; // no type: null is allowed already
}
