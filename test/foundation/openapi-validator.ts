import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** An OpenAPI schema object (3.1, or 3.0 with nullable), as far as these tools read one. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  nullable?: boolean;
  example?: unknown;
  examples?: unknown;
  default?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  [key: string]: unknown;
}
export interface MediaType {
  schema?: Schema;
  examples?: Record<string, { value: { message: string } }>;
}
export interface Operation {
  responses: Record<string, { description?: string; headers?: Record<string, { schema?: Schema }>; content?: Record<string, MediaType> } | undefined>;
  [key: string]: unknown;
}
export type OpenApiDocument = { openapi?: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

/**
 * OAS 3.1 schema → the JSON Schema ajv checks: $refs inlined, annotations dropped, and objects closed
 * (`additionalProperties: false` where the schema lists properties and says nothing else), so a field
 * the service sends but the document does not describe is a failure. A 3.0 `nullable` is read the way
 * strict tools read it (null added to `type`, `oneOf`/`anyOf` and `enum`; beside `allOf` alone it means
 * nothing), though the served document has none (openapi.e2e-spec.ts).
 */
export function toJsonSchema(schema: Schema, document: OpenApiDocument, depth = 0): Schema {
  if (depth > 30) throw new Error('schema nesting too deep (cyclic $ref?)');
  if (schema.$ref) {
    const name = String(schema.$ref).replace('#/components/schemas/', '');
    const target = document.components.schemas[name];
    if (!target) throw new Error(`unresolved ${schema.$ref}`);
    return toJsonSchema(target, document, depth + 1);
  }
  const { nullable, example: _example, examples: _examples, ...out } = schema;
  const sub = (s: Schema): Schema => toJsonSchema(s, document, depth + 1);
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, sub(v)]));
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  if (out.items) out.items = sub(out.items);
  if (out.additionalProperties && typeof out.additionalProperties === 'object') out.additionalProperties = sub(out.additionalProperties);
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) out[key] &&= out[key].map(sub);
  if (nullable === true) {
    if (out.type) out.type = [...[out.type].flat(), 'null'];
    if (out.oneOf) out.oneOf = [...out.oneOf, { type: 'null' }];
    if (out.anyOf) out.anyOf = [...out.anyOf, { type: 'null' }];
    if (out.enum && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

/** The document operation a concrete request hits (path parameters match one segment). */
export function findOperation(document: OpenApiDocument, method: string, url: string): { path: string; operation: Operation } | undefined {
  const path = url.split('?')[0];
  const candidates = Object.keys(document.paths).filter((template) => {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(path) && document.paths[template][method.toLowerCase()];
  });
  // A literal segment beats a parameter (rides/estimate vs rides/{ride_id}).
  candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  const best = candidates[0];
  return best ? { path: best, operation: document.paths[best][method.toLowerCase()] } : undefined;
}

export class ResponseValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
  }

  schemaFor(method: string, url: string, status: number): Schema | undefined {
    const found = findOperation(this.document, method, url);
    if (!found) throw new Error(`no operation for ${method} ${url}`);
    const response = found.operation.responses[String(status)];
    if (!response) throw new Error(`${method} ${found.path} does not document status ${status}`);
    return response.content?.['application/json']?.schema;
  }

  errorMessagesFor(method: string, url: string, status: number): string[] {
    const found = findOperation(this.document, method, url);
    const examples = found?.operation.responses[String(status)]?.content?.['application/json']?.examples ?? {};
    return Object.values(examples).map((e) => e.value.message);
  }

  /** Problems of a response body against its documented schema ([] when it conforms). */
  check(method: string, url: string, status: number, body: unknown): string[] {
    const found = findOperation(this.document, method, url);
    const key = `${method} ${found?.path} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const schema = this.schemaFor(method, url, status);
      if (!schema) throw new Error(`${key} has no JSON schema`);
      validate = this.ajv.compile(toJsonSchema(schema, this.document));
      this.cache.set(key, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${key}: ${e.instancePath} ${e.message}`);
  }
}

/** The body Swagger UI pre-fills from a schema: every property, from its example, default or first enum value. */
export function sampleFromSchema(schema: Schema, document: OpenApiDocument, depth = 0): unknown {
  if (depth > 20) return undefined;
  if (schema.$ref) return sampleFromSchema(document.components.schemas[schema.$ref.replace('#/components/schemas/', '')] ?? {}, document, depth + 1);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sampleFromSchema(s, document, depth + 1)));
  const choices = schema.oneOf ?? schema.anyOf;
  if (choices) return sampleFromSchema(choices[0]!, document, depth + 1);
  // OAS 3.1: a nullable field's type is a list such as ['string', 'null']; the sample is of the other.
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'array') return [sampleFromSchema(schema.items ?? {}, document, depth + 1)];
  if (type === 'object' || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sampleFromSchema(v, document, depth + 1)]));
  }
  return { string: 'string', number: 0, integer: 0, boolean: true }[type as string];
}
