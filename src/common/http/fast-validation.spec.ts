import type { Type } from '@nestjs/common';
import { getMetadataStorage, isLatitude, isLongitude } from 'class-validator';
import { RefreshTokenDto } from '../../modules/auth/dto/refresh-token.dto';
import { UpdateLocationDto } from '../../modules/drivers/dto/update-location.dto';
import { EstimateRideDto } from '../../modules/rides/dto/estimate-ride.dto';
import { LocationDto } from '../../modules/rides/dto/location.dto';
import { fastTransform, fastValidationOf, isLatitudeNumber, isLongitudeNumber } from './fast-validation';
import { createValidationPipe } from './validation.pipe';

const full = createValidationPipe({ fastPaths: false });
const withFast = createValidationPipe();

/** The decorators of each fast-validated DTO: a new rule on the DTO must be mirrored in its fast rules. */
const EXPECTED_RULES: Record<string, Record<string, string[]>> = {
  UpdateLocationDto: {
    latitude: ['isLatitude', 'isNumber'],
    longitude: ['isLongitude', 'isNumber'],
    heading: ['isNumber', 'isOptional', 'max', 'min'],
    speed: ['isNumber', 'isOptional', 'max', 'min'],
    accuracy: ['isNumber', 'isOptional', 'max', 'min'],
  },
  LocationDto: {
    address: ['isNotEmpty', 'isString', 'maxLength'],
    latitude: ['isLatitude', 'isNumber'],
    longitude: ['isLongitude', 'isNumber'],
  },
  EstimateRideDto: {
    pickup: ['isObject', 'nested'],
    dropoff: ['isObject', 'nested'],
    return_location: ['isObject', 'isOptional', 'nested'],
    ride_type: ['isIn'],
    passenger_count: ['isInt', 'isOptional', 'max', 'min'],
    children: ['isInt', 'isOptional', 'max', 'min'],
    duration_minutes: ['isInt', 'isOptional', 'max', 'min'],
    end_scheduled_at: ['isIso8601', 'isOptional'],
    return_scheduled_at: ['isIso8601', 'isOptional'],
    promo_code: ['isOptional', 'isString', 'maxLength'],
    vehicle_category_id: ['isInt', 'isOptional', 'min'],
    payment_method: ['isIn', 'isOptional'],
  },
  RefreshTokenDto: {
    refresh_token: ['isString', 'maxLength'],
  },
};

function decoratorRules(type: Type<object>): Record<string, string[]> {
  const storage = getMetadataStorage();
  const rules: Record<string, string[]> = {};
  for (const m of storage.getTargetValidationMetadatas(type, '', true, false)) {
    const name =
      m.type === 'customValidation'
        ? (storage.getTargetValidatorConstraints(m.constraintCls)[0]?.name ?? 'custom')
        : m.type === 'conditionalValidation'
          ? 'isOptional'
          : m.type === 'nestedValidation'
            ? 'nested'
            : m.type;
    (rules[m.propertyName] ??= []).push(name);
  }
  for (const key of Object.keys(rules)) rules[key]!.sort();
  return rules;
}

const LOCATION = { address: '1 Market St', latitude: 37.7936, longitude: -122.3958 };
const BASES: Array<[Type<object>, Record<string, unknown>]> = [
  [UpdateLocationDto, { latitude: 37.79, longitude: -122.39, heading: 90, speed: 8.5, accuracy: 5 }],
  [
    EstimateRideDto,
    {
      pickup: LOCATION,
      dropoff: { ...LOCATION, latitude: 37.76 },
      return_location: { ...LOCATION, longitude: -122.43 },
      ride_type: 'round_trip',
      vehicle_category_id: 1,
      passenger_count: 1,
      children: 0,
      duration_minutes: 60,
      end_scheduled_at: '2026-11-22T12:00:00.000Z',
      return_scheduled_at: '2026-11-22T18:00:00Z',
      promo_code: 'WELCOME10',
      payment_method: 'cash',
    },
  ],
  [RefreshTokenDto, { refresh_token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.sig' }],
];

const ODD_VALUES: unknown[] = [
  null, '', ' ', 'abc', '12', 0, -0, 1, -1, 1.5, 1e-7, 90, 90.0001, -90, 180, -180.5, 360, 361, 150, 150.5, 100000, 100001,
  1440, 1441, 100, 101, 2 ** 53, true, false, {}, [], [1], { address: 'x' }, { ...LOCATION, extra: 1 },
  { ...LOCATION, latitude: '37.7' }, { ...LOCATION, address: '' }, { ...LOCATION, address: 'a'.repeat(301) }, LOCATION,
  '2026-11-22T12:00:00.000Z', '2026-11-22', '2026-13-01T00:00:00Z', 'one_way', 'per_hour', 'delivery', 'ONE_WAY', 'cash',
  'wallet', 'card', 'x'.repeat(40), 'x'.repeat(41), 'x'.repeat(2049), '😀'.repeat(30),
];

/** A deterministic pseudo-random sequence, so that a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

function mutate(base: Record<string, unknown>, next: () => number): Record<string, unknown> {
  const body: Record<string, unknown> = structuredClone(base);
  const keys = Object.keys(body);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
  const changes = 1 + Math.floor(next() * 3);
  for (let i = 0; i < changes; i++) {
    const r = next();
    if (r < 0.25) delete body[pick(keys)];
    else if (r < 0.3) body[pick(['extra', 'constructor', 'toString'])] = 1;
    else if (r < 0.4 && keys.some((k) => typeof body[k] === 'object' && body[k] !== null)) {
      const nestedKey = pick(keys.filter((k) => typeof body[k] === 'object' && body[k] !== null));
      const nested = { ...(body[nestedKey] as Record<string, unknown>) };
      nested[pick(Object.keys(nested).concat('extra'))] = structuredClone(pick(ODD_VALUES));
      body[nestedKey] = nested;
    } else body[pick(keys)] = structuredClone(pick(ODD_VALUES));
  }
  return body;
}

async function outcome(pipe: ReturnType<typeof createValidationPipe>, type: Type<object>, body: unknown): Promise<unknown> {
  try {
    return { ok: await pipe.transform(structuredClone(body), { type: 'body', metatype: type, data: undefined }) };
  } catch (err) {
    return { error: (err as { details?: unknown }).details ?? String(err) };
  }
}

describe('fast validation', () => {
  it.each([UpdateLocationDto, LocationDto, EstimateRideDto, RefreshTokenDto])('%p: fast rules cover exactly its decorators', (type) => {
    const fields = fastValidationOf(type);
    expect(fields).toBeDefined();
    const rules = decoratorRules(type);
    expect(rules).toEqual(EXPECTED_RULES[type.name]);
    expect(Object.keys(fields!).sort()).toEqual(Object.keys(rules).sort());
    for (const [key, names] of Object.entries(rules)) {
      expect([key, Boolean(fields![key]!.optional)]).toEqual([key, names.includes('isOptional')]);
      expect([key, Boolean(fields![key]!.nested)]).toEqual([key, names.includes('nested')]);
    }
  });

  it.each(BASES)('%p: a valid body becomes the same instance as through the full pipe', async (type, base) => {
    const fast = fastTransform(type, structuredClone(base));
    expect(fast).toBeDefined();
    expect(fast).toStrictEqual(((await outcome(full, type, base)) as { ok: unknown }).ok);
  });

  it.each(BASES)('%p: on 3000 mutated bodies, fast accepts only what the full pipe accepts, and the pipe answers the same', async (type, base) => {
    const next = random(type.name.length * 7919);
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const body = mutate(base, next);
      const expected = await outcome(full, type, body);
      const fast = fastTransform(type, structuredClone(body));
      if (fast !== undefined) {
        accepted += 1;
        expect({ body, result: { ok: fast } }).toStrictEqual({ body, result: expected });
      }
      expect({ body, result: await outcome(withFast, type, body) }).toStrictEqual({ body, result: expected });
    }
    expect(accepted).toBeGreaterThan(100);
  });

  it('leaves bodies that are not plain objects to the full pipe', () => {
    for (const body of [undefined, null, 'text', 12, [], [{}]]) expect(fastTransform(UpdateLocationDto, body)).toBeUndefined();
  });

  it('isLatitudeNumber/isLongitudeNumber answer as class-validator does for every finite number', () => {
    const edges = [0, -0, 1e-6, -1e-6, 9.99e-7, 1e-7, -1e-7, 5e-324, 1e-300, 0.1, 0.5, 1, 45.12345678901234, 89.999999, 90, 90.0000001,
      -90, -90.0000001, 99.5, 100, 179.99999999, 180, 180.0000001, -180, -180.5, 1e21, 1e300, Number.MAX_VALUE, Number.EPSILON];
    const next = random(424242);
    const values = [...edges];
    for (let i = 0; i < 20000; i++) {
      const scale = 10 ** Math.floor(next() * 12 - 9);
      values.push((next() * 2 - 1) * 400 * scale, Math.round((next() * 2 - 1) * 200 * 1e4) / 1e4);
    }
    for (const n of values) {
      expect([n, isLatitudeNumber(n)]).toEqual([n, isLatitude(n as unknown as string)]);
      expect([n, isLongitudeNumber(n)]).toEqual([n, isLongitude(n as unknown as string)]);
    }
  });
});
