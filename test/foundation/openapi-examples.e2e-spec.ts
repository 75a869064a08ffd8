import { STATUS_CODES } from 'node:http';
import { DEV_CODE, freshEmail, freshPhone, startAuthApp, verifyContact } from '../auth/auth-helpers';
import { acceptedRide, bookRide, onlineDriver, setStatus } from '../rides/ride-helpers';
import { createOperator, createUser, TestUser } from '../support/factories';
import type { TestApp } from '../support/test-app';
import { startStripeFake, StripeFake } from '../fakes/stripe-fake';
import type { OpenAPIObject } from '@nestjs/swagger';
import { refreshRideRequestExamples } from '../../src/bootstrap/openapi-responses';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
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
    const passenger = await createUser(t);
    const admin = await createOperator(t, 'admin');
    const call = (method: string, url: string, payload: unknown, token?: string) =>
      t.request({ method: method.toUpperCase() as 'POST', url, payload: payload as object, token });
    type Handler = (body: Json, method: string, path: string) => Promise<{ statusCode: number; body: string }>;
    type Contact = { phone?: string; email?: string };
    const fresh = (body: Json): Json & Contact => ({ ...body, ...(body.phone ? { phone: freshPhone() } : {}), ...(body.email ? { email: freshEmail() } : {}) });
    const cancelAfter = async (res: { statusCode: number; body: string }, token: string) => {
      if (res.statusCode === 201) await call('post', `/api/v1/rides/${JSON.parse(res.body).id}/cancel`, undefined, token);
      return res;
    };
    const handlers: Record<string, Handler> = {
      AuthController_sendOtp: (body, m, p) => call(m, p, fresh(body)),
      AuthController_verifyOtp: async (body, m, p) => {
        const contact = fresh(body);
        await call('post', '/api/v1/auth/send-otp', { phone: contact.phone, email: contact.email });
        // The code is the one the server sent (here the fixed development code).
        return call(m, p, { ...contact, otp: DEV_CODE });
      },
      AuthController_register: async (body, m, p) => {
        const contact = fresh(body);
        const verified = await verifyContact(t, { phone: contact.phone, email: contact.email });
        return call(m, p, contact, verified.access_token);
      },
      AuthController_login: async (body, m, p) => {
        const contact = fresh(body);
        const verified = await verifyContact(t, { phone: contact.phone, email: contact.email });
        await call(
          'post',
          '/api/v1/auth/register',
          { role: 'passenger', first_name: 'Ada', phone: contact.phone, email: contact.email },
          verified.access_token,
        );
        const proof = await verifyContact(t, { phone: contact.phone, email: contact.email });
        return call(m, p, contact, proof.access_token);
      },
      AuthController_refresh: (body, m, p) => call(m, p, { ...body, refresh_token: passenger.refreshToken }),
      RidesController_estimate: (body, m, p) => call(m, p, body, passenger.accessToken),
      RidesController_book: async (body, m, p) => cancelAfter(await call(m, p, body, passenger.accessToken), passenger.accessToken),
      RidesController_cancel: async (body, m, p) => {
        const ride = await bookRide(t, passenger);
        return call(m, p.replace('{ride_id}', ride.id), body, passenger.accessToken);
      },
      RidesController_changeStatus: async (body, m, p) => {
        const { driver, rideId } = await acceptedRide(t);
        return call(m, p.replace('{ride_id}', rideId), body, driver.accessToken);
      },
      RidesController_raiseOffer: async (body, m, p) => {
        const owner = await createUser(t);
        const ride = await bookRide(t, owner);
        return cancelAfter(await call(m, p.replace('{ride_id}', ride.id), body, owner.accessToken), owner.accessToken);
      },
      TipsController_tip: async (body, m, p) => {
        const owner = await createUser(t, { walletBalanceMinor: 100_000 });
        const { driver, rideId } = await acceptedRide(t, { passenger: owner });
        for (const status of ['driver_arrived', 'started', 'completed']) await setStatus(t, driver, rideId, status);
        return call(m, p.replace('{ride_id}', rideId), body, owner.accessToken);
      },
      DriversController_updateProfile: async (body, m, p) => call(m, p, body, (await createUser(t, { role: 'driver' })).accessToken),
      DriversController_setStatus: async (body, m, p) => call(m, p, body, (await createUser(t, { role: 'driver' })).accessToken),
      DriversController_updateLocation: async (body, m, p) => call(m, p, body, (await onlineDriver(t)).accessToken),
      BidsController_submit: async (body, m, p) => {
        const owner: TestUser = await createUser(t);
        const ride = await bookRide(t, owner);
        return call(m, p.replace('{ride_id}', ride.id), body, (await onlineDriver(t)).accessToken);
      },
      UsersController_updateProfile: async (body, m, p) => call(m, p, fresh(body), (await createUser(t)).accessToken),
      RideChatController_send: async (body, m, p) => {
        const { passenger: rider, rideId } = await acceptedRide(t);
        return call(m, p.replace('{ride_id}', rideId), body, rider.accessToken);
      },
      CardsController_setDefault: async (body, m, p) => {
        const owner = await createUser(t);
        const setup = await call('post', '/api/v1/payments/cards/setup', undefined, owner.accessToken);
        const card = fake.confirmSetupIntent(JSON.parse(setup.body).setup_intent_id).paymentMethod.id;
        return call(m, p, { ...body, card_id: card }, owner.accessToken);
      },
      PayoutsController_payOut: async (body, m, p) => {
        const driver = await createUser(t, { role: 'driver', walletBalanceMinor: 1_000_000 });
        await call('post', '/api/v1/driver/payouts/account', undefined, driver.accessToken);
        const [row] = await t.db.query(`SELECT stripe_account_id FROM payout_accounts WHERE driver_id = $1`, [driver.id]);
        await fake.sendWebhook(`${t.baseUrl}/api/v1/payments/stripe/webhook`, fake.event('account.updated', fake.completeOnboarding(row.stripe_account_id)));
        return call(m, p, body, driver.accessToken);
      },
      // Stripe signs the bytes it sends.
      StripeWebhooksController_receive: (body, m, p) => {
        const payload = JSON.stringify(body);
        return t.request({
          method: 'POST',
          url: p,
          payload,
          headers: { 'content-type': 'application/json', 'stripe-signature': fake.signatureHeader(payload) },
        });
      },
      AdminOperatorsController_add: (body, m, p) => call(m, p, fresh(body), admin.accessToken),
      AdminRidesController_cancel: async (body, m, p) => call(m, p.replace('{ride_id}', (await acceptedRide(t)).rideId), body, admin.accessToken),
      AdminSosController_resolve: async (body, m, p) => {
        const { passenger: rider, rideId } = await acceptedRide(t);
        const sos = await call('post', `/api/v1/rides/${rideId}/sos`, {}, rider.accessToken);
        return call(m, p.replace('{id}', String(JSON.parse(sos.body).id)), body, admin.accessToken);
      },
      EmergencyContactsController_put: (body, m, p) => call(m, p, body, passenger.accessToken),
      SosController_raise: async (body, m, p) => {
        const { passenger: rider, rideId } = await acceptedRide(t);
        return call(m, p.replace('{ride_id}', rideId), body, rider.accessToken);
      },
      SosController_answer: async (body, m, p) => {
        const { passenger: rider, rideId } = await acceptedRide(t);
        return call(m, p.replace('{ride_id}', rideId), body, rider.accessToken);
      },
      AdminPromoCodesController_create: (body, m, p) => call(m, p, { ...body, code: `EX-${freshPhone().slice(-9)}` }, admin.accessToken),
      AdminPromoCodesController_update: async (body, m, p) => {
        const code = `EX-${freshPhone().slice(-9)}`;
        await call('post', '/api/v1/admin/promo-codes', { code, discount_type: 'fixed', discount_value: 1, reason: 'An example to change' }, admin.accessToken);
        return call(m, p.replace('{code}', code), body, admin.accessToken);
      },
      AdminUsersController_block: async (body, m, p) => call(m, p.replace('{id}', String((await createUser(t)).id)), body, admin.accessToken),
      AdminUsersController_unblock: async (body, m, p) => call(m, p.replace('{id}', String((await createUser(t)).id)), body, admin.accessToken),
      AdminDriversController_approve: async (body, m, p) =>
        call(m, p.replace('{id}', String((await createUser(t, { role: 'driver', driverStatus: 'pending' })).id)), body, admin.accessToken),
      AdminDriversController_reject: async (body, m, p) =>
        call(m, p.replace('{id}', String((await createUser(t, { role: 'driver', driverStatus: 'pending' })).id)), body, admin.accessToken),
      AdminDriversController_suspend: async (body, m, p) =>
        call(m, p.replace('{id}', String((await createUser(t, { role: 'driver' })).id)), body, admin.accessToken),
      AdminDriversController_reinstate: async (body, m, p) =>
        call(m, p.replace('{id}', String((await createUser(t, { role: 'driver', driverStatus: 'suspended' })).id)), body, admin.accessToken),
      AdminWalletsController_adjust: async (body, m, p) =>
        call(m, p.replace('{user_id}', String((await createUser(t, { walletBalanceMinor: 100_000 })).id)), body, admin.accessToken),
      AdminOperatorsController_remove: async (body, m, p) =>
        call(m, p.replace('{id}', String((await createOperator(t, 'support')).id)), body, admin.accessToken),
      AdminRideRefundsController_refund: async (body, m, p) => {
        const owner = await createUser(t, { walletBalanceMinor: 100_000 });
        const { driver, rideId } = await acceptedRide(t, { passenger: owner, payment: 'wallet' });
        for (const status of ['driver_arrived', 'started', 'completed']) await setStatus(t, driver, rideId, status);
        return call(m, p.replace('{ride_id}', rideId), body, admin.accessToken);
      },
      // A completed ride per body: each side rates a ride once.
      RideRatingsController_rate: async (body, m, p) => {
        const { passenger: rider, driver, rideId } = await acceptedRide(t);
        for (const status of ['driver_arrived', 'started', 'completed']) await setStatus(t, driver, rideId, status);
        return call(m, p.replace('{ride_id}', rideId), body, rider.accessToken);
      },
    };

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
