import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { DataSource } from 'typeorm';
import { Public } from '../../src/common/auth/auth.decorators';
import { CommonError } from '../../src/common/errors/common.errors';
import { startTestApp, TestApp } from '../support/test-app';

class PointDto {
  @IsNumber() @Min(-90) @Max(90) latitude!: number;
  @IsNumber() longitude!: number;
}

class ProbeDto {
  @IsString() name!: string;
  @IsOptional() @IsInt() count?: number;
  @IsOptional() @ValidateNested() @Type(() => PointDto) point?: PointDto;
}

class OptionalProbeDto {
  @IsOptional() @IsString() reason?: string;
}

/** Test-only routes: the real app has no endpoint that fails on purpose. */
@Public()
@Controller('probe')
class ProbeController {
  constructor(private readonly db: DataSource) {}

  @Post('dto')
  echo(@Body() body: ProbeDto): ProbeDto {
    return body;
  }

  @Post('optional')
  optional(@Body() body: OptionalProbeDto): { reason: string | null } {
    return { reason: body.reason ?? null };
  }

  @Get('crash')
  crash(): never {
    throw new Error('connection to db.internal:5432 failed: SELECT secret FROM users');
  }

  @Get('sql')
  async sql(): Promise<unknown> {
    return this.db.query('SELECT no_such_column FROM users WHERE password = $1', ['hunter2']);
  }

  @Get('domain')
  domain(): never {
    throw CommonError.validation('when', 'when must be in the future');
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

const JSON_HEADERS = { 'content-type': 'application/json' };

function expectErrorShape(body: Record<string, unknown>, statusCode: number, error: string): void {
  expect(body).toMatchObject({ statusCode, error, message: expect.any(String) });
  const allowed = ['statusCode', 'error', 'message', 'details', 'correlation_id'];
  expect(Object.keys(body).filter((k) => !allowed.includes(k))).toEqual([]);
}

describe('error responses (contract error shape)', () => {
  let t: TestApp;
  const warnings: string[] = [];
  const onWarning = (w: Error & { code?: string }): void => {
    warnings.push(`${w.code ?? w.name}: ${w.message}`);
  };

  beforeAll(async () => {
    process.on('warning', onWarning);
    t = await startTestApp({ env: { BODY_LIMIT_BYTES: '2048' }, modules: [ProbeModule] });
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await t.close();
  });

  it('starts without Fastify warnings (no error handler override)', () => {
    expect(warnings.filter((w) => w.startsWith('FSTWRN'))).toEqual([]);
  });

  it('malformed JSON is 400 "Malformed JSON in request body"', async () => {
    for (const payload of ['{bad', '{"name": "x",}', '{"__proto__": {"admin": true}}', '[1, 2']) {
      const res = await t.request({ method: 'POST', url: '/api/v1/probe/dto', payload, headers: JSON_HEADERS });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Malformed JSON in request body' });
    }
  });

  it('malformed JSON on a route outside the /api/v1 prefix is 400 too', async () => {
    const res = await t.request({ method: 'POST', url: '/health/live', payload: '{bad', headers: JSON_HEADERS });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Malformed JSON in request body');
  });

  it('an unknown route is 404 in the error shape', async () => {
    for (const url of ['/api/v1/nope', '/nope', '/api/v2/rides/categories']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expectErrorShape(res.json(), 404, 'Not Found');
    }
    const wrongMethod = await t.request({ method: 'DELETE', url: '/api/v1/rides/categories' });
    expect(wrongMethod.statusCode).toBe(404);
    expectErrorShape(wrongMethod.json(), 404, 'Not Found');
  });

  it('a URL the router cannot decode is 400, an over-long path segment 414, both in the error shape', async () => {
    for (const url of ['/api/v1/rides/%E0%A4%A', '/api/v1/rides/%zz']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Malformed URL: invalid percent-encoding in the path' });
    }
    const long = await t.request({ method: 'GET', url: `/api/v1/rides/${'a'.repeat(5000)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ statusCode: 414, error: 'URI Too Long', message: 'A path segment is longer than allowed' });
  });

  it('a body over BODY_LIMIT_BYTES is 413', async () => {
    const payload = JSON.stringify({ name: 'x'.repeat(4000) });
    const res = await t.request({ method: 'POST', url: '/api/v1/probe/dto', payload, headers: JSON_HEADERS });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'Request body is larger than the allowed size',
    });
  });

  it('a body that is not JSON is 415', async () => {
    const cases = [
      { 'content-type': 'text/plain', payload: 'name=x' },
      { 'content-type': 'application/x-www-form-urlencoded', payload: 'name=x' },
      { 'content-type': 'application/xml', payload: '<name>x</name>' },
      { 'content-type': 'multipart/form-data; boundary=x', payload: '--x--' },
    ];
    for (const { payload, ...headers } of cases) {
      const res = await t.request({ method: 'POST', url: '/api/v1/probe/dto', payload, headers });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        statusCode: 415,
        error: 'Unsupported Media Type',
        message: 'Unsupported content type; send application/json',
      });
    }
  });

  it('JSON with a charset parameter is accepted', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/probe/dto',
      payload: JSON.stringify({ name: 'ok' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ name: 'ok' });
  });

  it('a JSON body that is not an object is 400, never 500', async () => {
    for (const payload of ['[]', '[{"name": "x"}]', '"name"', '42', 'true']) {
      const res = await t.request({ method: 'POST', url: '/api/v1/probe/dto', payload, headers: JSON_HEADERS });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'Request body must be a JSON object',
        details: [{ field: 'body', message: 'Request body must be a JSON object' }],
      });
    }
    // An all-optional DTO must not let an array through either.
    const res = await t.request({ method: 'POST', url: '/api/v1/probe/optional', payload: '[]', headers: JSON_HEADERS });
    expect(res.statusCode).toBe(400);
  });

  it('a JSON null body is 400 like any other non-object; an empty body or no body is validated as {} (required fields reported)', async () => {
    for (const url of ['/api/v1/probe/dto', '/api/v1/probe/optional']) {
      const res = await t.request({ method: 'POST', url, payload: 'null', headers: JSON_HEADERS });
      expect(res.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'Request body must be a JSON object',
        details: [{ field: 'body', message: 'Request body must be a JSON object' }],
      });
    }
    for (const payload of ['', '  ', undefined]) {
      const res = await t.request({ method: 'POST', url: '/api/v1/probe/dto', payload, headers: JSON_HEADERS });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([{ field: 'name', message: 'name must be a string' }]);
    }
    const noBody = await t.request({ method: 'POST', url: '/api/v1/probe/optional' });
    expect(noBody.statusCode).toBe(201);
    const emptyJson = await t.request({ method: 'POST', url: '/api/v1/probe/optional', payload: '', headers: JSON_HEADERS });
    expect(emptyJson.statusCode).toBe(201);
    expect(emptyJson.json()).toEqual({ reason: null });
  });

  it('validation failures are 400 with details[{field, message}], nested paths included', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/probe/dto',
      payload: { name: 5, count: 'many', point: { latitude: 91, longitude: 'x' } },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expectErrorShape(body, 400, 'Bad Request');
    expect(body.details).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'name must be a string' },
        { field: 'count', message: 'count must be an integer number' },
        { field: 'point.latitude', message: 'point.latitude must not be greater than 90' },
        { field: 'point.longitude', message: expect.stringContaining('point.longitude') },
      ]),
    );
    expect(body.message).toBe(`name must be a string (and ${body.details.length - 1} more)`);
  });

  it('unknown fields are rejected with 400, not silently dropped', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/probe/dto', payload: { name: 'x', is_admin: true } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'is_admin', message: 'property is_admin should not exist' }]);
  });

  it('a DomainError gets the status of its code and its own message', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/probe/domain' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'when must be in the future',
      details: [{ field: 'when', message: 'when must be in the future' }],
    });
  });

  it('an unexpected exception is 500 with a correlation id and nothing of the cause', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/probe/crash' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expectErrorShape(body, 500, 'Internal Server Error');
    const requestId = res.headers['x-request-id'];
    expect(typeof requestId).toBe('string');
    expect(body.correlation_id).toBe(requestId);
    expect(body.message).toBe(`Internal server error (correlation id ${requestId})`);
    expect(res.body).not.toMatch(/SELECT|db\.internal|secret|\bat \w|\.ts:\d/);
  });

  it('a database failure is 500 without SQL or parameters in the body', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/probe/sql', headers: { 'x-request-id': 'trace-abc.123' } });
    expect(res.statusCode).toBe(500);
    expect(res.headers['x-request-id']).toBe('trace-abc.123');
    expect(res.json()).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'Internal server error (correlation id trace-abc.123)',
      correlation_id: 'trace-abc.123',
    });
    expect(res.body).not.toMatch(/no_such_column|hunter2|password/);
  });

  it('an unusable x-request-id is replaced by a generated one', async () => {
    const res = await t.request({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
