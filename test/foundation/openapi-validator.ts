import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Schema = Record<string, any>;
export type OpenApiDocument = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } };

/**
 * OAS 3.0 schema → JSON Schema the way strict tools read it (openapi-schema-to-json-schema): `nullable`
 * adds null to `type`, to `oneOf`/`anyOf` and to `enum`; beside `allOf` alone it means nothing.
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
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties as Record<string, Schema>).map(([k, v]) => [k, sub(v)]));
  if (out.items) out.items = sub(out.items);
  if (out.additionalProperties && typeof out.additionalProperties === 'object') out.additionalProperties = sub(out.additionalProperties);
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) if (out[key]) out[key] = (out[key] as Schema[]).map(sub);
  if (nullable === true) {
    if (out.type) out.type = [out.type, 'null'];
    if (out.oneOf) out.oneOf = [...out.oneOf, { type: 'null' }];
    if (out.anyOf) out.anyOf = [...out.anyOf, { type: 'null' }];
    if (out.enum && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

/** The document operation a concrete request hits (path parameters match one segment). */
export function findOperation(document: OpenApiDocument, method: string, url: string): { path: string; operation: any } | undefined {
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
    return Object.values(examples as Record<string, { value: { message: string } }>).map((e) => e.value.message);
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
  if (schema.$ref) return sampleFromSchema(document.components.schemas[String(schema.$ref).replace('#/components/schemas/', '')], document, depth + 1);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: Schema) => sampleFromSchema(s, document, depth + 1)));
  if (schema.oneOf ?? schema.anyOf) return sampleFromSchema((schema.oneOf ?? schema.anyOf)[0], document, depth + 1);
  if (schema.type === 'array') return [sampleFromSchema(schema.items ?? {}, document, depth + 1)];
  if (schema.type === 'object' || schema.properties) {
    return Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([k, v]) => [k, sampleFromSchema(v, document, depth + 1)]));
  }
  return { string: 'string', number: 0, integer: 0, boolean: true }[schema.type as string];
}
