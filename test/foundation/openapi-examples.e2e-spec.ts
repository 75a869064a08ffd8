import { STATUS_CODES } from 'node:http';
import { startAuthApp } from '../auth/auth-helpers';
import type { TestApp } from '../support/test-app';
import { startStripeFake, StripeFake } from '../fakes/stripe-fake';
import type { OpenAPIObject } from '@nestjs/swagger';
import { refreshRideRequestExamples } from '../../src/bootstrap/openapi-responses';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { exampleRequests } from './openapi-example-requests';
import { MediaType, OpenApiDocument, Operation, ResponseValidator, sampleFromSchema, Schema, toJsonSchema } from './openapi-validator';

type Json = Record<string, unknown>;
/** An error body as the examples show it. */
type ErrorExample = { statusCode?: number; error?: string; message?: string; details?: Array<{ message: string }> };
type RequestOperation = Operation & {
  operationId: string;
  requestBody?: { content?: Record<string, MediaType & { example?: unknown; examples?: Record<string, { value: unknown }> }> };
};
type ResponseObject = { description?: string; headers?: Record<string, { schema?: Schema }>; content?: Record<string, MediaType> };
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function operations(document: OpenApiDocument): Array<{ method: string; path: string; op: RequestOperation }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] as RequestOperation })),
  );
}

describe('OpenAPI examples', () => {
  let t: TestApp;
  let fake: StripeFake;
  let document: OpenApiDocument;
  beforeAll(async () => {
    // Card and payout examples reach Stripe: a local fake of it.
    fake = await startStripeFake();
    t = await startAuthApp({ STRIPE_SECRET_KEY: fake.secretKey, STRIPE_WEBHOOK_SECRET: fake.webhookSecret, STRIPE_API_BASE: fake.url });
    document = (await t.request({ method: 'GET', url: '/docs-json' })).json();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('every error status of every operation has examples of the error shape carrying that status', () => {
    const validator = new ResponseValidator(document);
    const problems: string[] = [];
    let checked = 0;
    for (const { method, path, op } of operations(document)) {
      for (const [status, response] of Object.entries(op.responses as Record<string, ResponseObject>)) {
        if (Number(status) < 400) continue;
        const media = response.content?.['application/json'];
        const name = `${method.toUpperCase()} ${path} ${status}`;
        if (media?.schema?.$ref !== '#/components/schemas/ErrorResponseDto') {
          if (!(['/health', '/health/ready'].includes(path) && status === '503')) problems.push(`${name}: not the error schema`);
          continue;
        }
        const examples = Object.entries((media.examples ?? {}) as Record<string, { value: ErrorExample & Json }>);
        if (examples.length === 0) problems.push(`${name}: no example`);
        for (const [key, { value }] of examples) {
          checked += 1;
          problems.push(...validator.check(method, path, Number(status), value).map((p) => `${p} (${key})`));
          if (value.statusCode !== Number(status)) problems.push(`${name} ${key}: statusCode ${value.statusCode}`);
          if (value.error !== STATUS_CODES[Number(status)]) problems.push(`${name} ${key}: error ${value.error}`);
          if (typeof value.message !== 'string' || !value.message) problems.push(`${name} ${key}: no message`);
          if (value.details && status !== '400') problems.push(`${name} ${key}: details outside a 400`);
          if (value.details && !value.details.some((d) => d.message === value.message)) problems.push(`${name} ${key}: details do not match`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(150);
    const messages = (p: string, m: string, s: string): string[] =>
      Object.values(document.paths[p]![m]!.responses[s]!.content!['application/json']!.examples!).map((e) => e.value.message);
    // The example that used to appear under every status is now only where it is true.
    expect(messages('/api/v1/auth/verify-otp', 'post', '400')).toContain('Invalid OTP');
    expect(messages('/api/v1/rides/book', 'post', '409')).toEqual([
      'You already have a ride in progress',
      'Idempotency-Key was already used with a different request body',
      'You already have the maximum number of scheduled rides',
    ]);
    expect(messages('/api/v1/rides/estimate', 'post', '403')).toEqual([
      'This endpoint is only for passenger accounts',
      'Complete registration before using this endpoint',
      'Operator accounts may only use the /api/v1/admin/ endpoints',
    ]);
    expect(messages('/api/v1/admin/operators', 'post', '403')).toEqual(['Operators only', 'Not allowed for your role']);
    expect(messages('/api/v1/admin/audit', 'get', '403')).toEqual(['Operators only']);
    expect(messages('/api/v1/rides/{ride_id}/bids', 'get', '403')).toContain('This endpoint is only for passenger accounts');
    expect(messages('/api/v1/rides/{ride_id}/bids/{bid_id}/accept', 'post', '403')).toContain('This endpoint is only for passenger accounts');
  });

  it('every 429 declares Retry-After; every 2xx has a description; servers and tags are set', () => {
    expect((document as unknown as Json).servers).toEqual([{ url: '/' }]);
    expect((document as unknown as { tags: Array<{ name: string }> }).tags.map((tag) => tag.name)).toEqual([
      'auth',
      'passenger',
      'rides',
      'bids',
      'chat',
      'driver',
      'wallet',
      'payments',
      'sharing',
      'safety',
      'health',
      'operators',
    ]);
    for (const { method, path, op } of operations(document)) {
      for (const [status, response] of Object.entries(op.responses as Record<string, ResponseObject>)) {
        if (status === '429') expect([method, path, response.headers?.['Retry-After']?.schema?.type]).toEqual([method, path, 'integer']);
        if (status.startsWith('2')) expect([method, path, status, Boolean(response.description)]).toEqual([method, path, status, true]);
      }
    }
  });

  it('every pre-filled request body (the schema sample and each named example) is accepted', async () => {
    const handlers = await exampleRequests(t, fake);

    const withBody = operations(document).filter(({ op }) => op.requestBody?.content?.['application/json']);
    expect(withBody.map(({ op }) => op.operationId).sort()).toEqual(Object.keys(handlers).sort());
    const refused: string[] = [];
    let tried = 0;
    for (const { method, path, op } of withBody) {
      const media = op.requestBody!.content!['application/json']!;
      const bodies: Array<[string, unknown]> = media.examples
        ? Object.entries(media.examples).map(([k, v]) => [k, v.value])
        : [['schema sample', media.example ?? sampleFromSchema(media.schema ?? {}, document)]];
      for (const [name, body] of bodies) {
        tried += 1;
        const res = await handlers[op.operationId]!(body as Json, method, path);
        if (res.statusCode >= 300) refused.push(`${method.toUpperCase()} ${path} [${name}]: ${res.statusCode} ${res.body}`);
      }
    }
    expect(refused).toEqual([]);
    expect(tried).toBe(withBody.length + 7);
  });

  it('the ride examples cover every ride type, with distinct pickup and dropoff and times ahead carrying Z', () => {
    for (const path of ['/api/v1/rides/estimate', '/api/v1/rides/book']) {
      const examples = (document.paths[path]!.post as RequestOperation).requestBody!.content!['application/json']!.examples as Record<
        string,
        { value: Json & { end_scheduled_at?: string; return_scheduled_at?: string; pickup_at?: string } }
      >;
      const book = path.endsWith('/book');
      expect(Object.keys(examples)).toEqual(['one_way', 'round_trip', 'per_hour', 'delivery', ...(book ? ['ride_later'] : [])]);
      for (const [name, { value }] of Object.entries(examples)) {
        expect(value.ride_type).toBe(name === 'ride_later' ? 'one_way' : name);
        expect(value.pickup).not.toEqual(value.dropoff);
        for (const at of [value.end_scheduled_at, value.return_scheduled_at, value.pickup_at].filter((v): v is string => Boolean(v))) {
          expect(at).toMatch(/Z$/);
          expect(Date.parse(at)).toBeGreaterThan(Date.now() + 60 * 60_000);
        }
      }
      expect(examples.per_hour.value).toMatchObject({ duration_minutes: expect.any(Number), end_scheduled_at: expect.any(String) });
      expect(examples.round_trip.value).toMatchObject({ return_location: expect.any(Object), return_scheduled_at: expect.any(String) });
      if (book) expect(Date.parse(examples.ride_later!.value.pickup_at!)).toBeLessThan(Date.now() + 7 * 24 * 3_600_000);
    }
  });

  it('a server running for days keeps the example times ahead (they are refreshed per /docs request)', () => {
    const later = new Date(Date.now() + 5 * 24 * 3_600_000);
    const copy = JSON.parse(JSON.stringify(document)) as OpenAPIObject;
    refreshRideRequestExamples(copy, later);
    const examples = (copy.paths['/api/v1/rides/book']!.post as unknown as RequestOperation).requestBody!.content!['application/json']!.examples as Record<
      string,
      { value: { end_scheduled_at: string; return_scheduled_at: string } }
    >;
    expect(Date.parse(examples.per_hour!.value.end_scheduled_at)).toBeGreaterThan(later.getTime());
    expect(Date.parse(examples.round_trip!.value.return_scheduled_at)).toBeGreaterThan(later.getTime());
    expect(Date.parse((examples as Record<string, { value: { pickup_at?: string } }>).ride_later!.value.pickup_at!)).toBeGreaterThan(
      later.getTime() + 15 * 60_000,
    );
  });

  it('every nullable schema says what may be null as OAS 3.1 does, read the same by strict and lenient tools (no nullable keyword, no $ref with siblings)', () => {
    expect(document.openapi).toBe('3.1.0');
    const misplaced: string[] = [];
    let objects = 0;
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((child, i) => walk(child, `${at}/${i}`));
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Schema;
      if ('nullable' in schema) misplaced.push(`${at} (nullable: a 3.0 keyword strict 3.1 readers ignore)`);
      if (typeof schema.$ref === 'string' && Object.keys(schema).length > 1) misplaced.push(`${at} ($ref with siblings ${Object.keys(schema).join(', ')})`);
      const nullType = Array.isArray(schema.type) && schema.type.includes('null');
      if (nullType && schema.enum && !schema.enum.includes(null)) misplaced.push(`${at} (enum without null)`);
      const union = schema.anyOf ?? schema.oneOf;
      if (union?.some((branch) => branch.type === 'null')) {
        objects += 1;
        if (schema.type) misplaced.push(`${at} (a type beside the union narrows it again)`);
      }
      for (const [key, child] of Object.entries(schema)) if (key !== 'example' && key !== 'examples') walk(child, `${at}/${key}`);
    };
    walk(document, '');
    expect(misplaced).toEqual([]);
    // The walk reached them: ride (return_location, passenger, driver, estimate.promo) and the nearby
    // ride (the ride's three), the driver profile's last_location, me (wallet, driver), the active ride,
    // the shared ride (driver, driver_location), the operators' ride with its history (the ride's three),
    // the operators' user (wallet, driver).
    expect(objects).toBe(18);
  });

  it('the fields code generators typed as never null accept null under a strict reading', () => {
    // The formats the document uses (uuid, date-time) are known, as in the response validator, so ajv checks them silently.
    const ajv = addFormats(new Ajv({ strict: false }));
    const property = (dto: string, name: string) => toJsonSchema(document.components.schemas[dto]!.properties![name]!, document);
    for (const [dto, name] of [
      ['RideResponseDto', 'return_location'],
      ['EstimateResponseDto', 'promo'],
      ['DriverProfileResponseDto', 'last_location'],
      ['MeResponseDto', 'wallet'],
      ['ActiveRideResponseDto', 'ride'],
    ]) {
      expect({ field: `${dto}.${name}`, nullable: ajv.validate(property(dto!, name!), null) }).toEqual({ field: `${dto}.${name}`, nullable: true });
    }
    expect(ajv.validate(property('RideResponseDto', 'pickup'), null)).toBe(false);
  });
});
