import type { Type } from '@nestjs/common';
import { IsInt, ValidateNested } from 'class-validator';
import { RefreshTokenDto } from '../../modules/auth/dto/refresh-token.dto';
import { NearbyRidesQueryDto } from '../../modules/drivers/dto/nearby-rides-query.dto';
import { UpdateLocationDto } from '../../modules/drivers/dto/update-location.dto';
import { BookRideDto } from '../../modules/rides/dto/book-ride.dto';
import { EstimateRideDto } from '../../modules/rides/dto/estimate-ride.dto';
import { LocationDto } from '../../modules/rides/dto/location.dto';
import { fastTransform, isFastValidated } from './fast-validation';
import { createValidationPipe } from './validation.pipe';

const full = createValidationPipe({ fastPaths: false });
const withFast = createValidationPipe();

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
  [
    BookRideDto,
    {
      pickup: LOCATION,
      dropoff: { ...LOCATION, latitude: 37.76 },
      ride_type: 'per_hour',
      vehicle_category_id: 2,
      duration_minutes: 90,
      end_scheduled_at: '2026-11-22T12:00:00+01:00',
      payment_method: 'wallet',
    },
  ],
];

/** Query strings: every value arrives as a string and @Type(() => Number) converts it. */
const QUERY_BASES: Array<[Type<object>, Record<string, unknown>]> = [[NearbyRidesQueryDto, { latitude: '52.52', longitude: '13.405', radius_km: '5' }]];
const QUERY_VALUES: unknown[] = ['52.52', '-33.9', '0', '90', '90.0', '-90', '90.0001', '180', '-180.5', '0.1', '0.05', '50', '50.01', '5',
  '+5', '005', '1e1', '0x10', '', ' 5', 'abc', 'NaN', 'Infinity', '0.0000001', '12.123456789012345678', ['1', '2'], undefined];

const ODD_VALUES: unknown[] = [
  null, '', ' ', 'abc', '12', 0, -0, 1, -1, 1.5, 1e-7, 90, 90.0001, -90, 180, -180.5, 360, 361, 150, 150.5, 100000, 100001,
  1440, 1441, 100, 101, 2 ** 53, true, false, {}, [], [1], { address: 'x' }, { ...LOCATION, extra: 1 },
  { ...LOCATION, latitude: '37.7' }, { ...LOCATION, address: '' }, { ...LOCATION, address: 'a'.repeat(301) }, LOCATION,
  '2026-11-22T12:00:00.000Z', '2026-11-22T12:00:00', '2026-11-22T12:00:00+0530', '2026-11-22', '2026-13-01T00:00:00Z', 'one_way', 'per_hour', 'delivery', 'ONE_WAY', 'cash',
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

async function outcome(pipe: ReturnType<typeof createValidationPipe>, type: Type<object>, body: unknown, kind: 'body' | 'query' = 'body'): Promise<unknown> {
  try {
    return { ok: await pipe.transform(structuredClone(body), { type: kind, metatype: type, data: undefined }) };
  } catch (err) {
    return { error: (err as { details?: unknown }).details ?? String(err) };
  }
}

describe('fast validation', () => {
  it.each([UpdateLocationDto, LocationDto, EstimateRideDto, BookRideDto, RefreshTokenDto, NearbyRidesQueryDto])(
    '%p: its decorators compile into a shortcut',
    (type) => expect(isFastValidated(type)).toBe(true),
  );

  it('a DTO using a feature the shortcut does not mirror is never compiled (always the full pipe)', () => {
    class EachDto {
      @IsInt({ each: true })
      values!: number[];
    }
    class NestedWithoutTypeDto {
      @ValidateNested()
      inner!: object;
    }
    expect(isFastValidated(EachDto)).toBe(false);
    expect(isFastValidated(NestedWithoutTypeDto)).toBe(false);
    expect(fastTransform(EachDto, { values: [1] })).toBeUndefined();
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

  it.each(QUERY_BASES)('%p: on every query value, the shortcut answers exactly as the full pipe (values, errors and details)', async (type, base) => {
    const queries: Array<Record<string, unknown>> = [{}, { unknown: '1' }, { ...base, extra: 'x' }];
    for (const key of Object.keys(base)) for (const v of QUERY_VALUES) queries.push({ ...base, [key]: v }, { [key]: v });
    let accepted = 0;
    for (const query of queries) {
      const expected = await outcome(full, type, query, 'query');
      const fast = fastTransform(type, structuredClone(query));
      if (fast !== undefined) {
        accepted += 1;
        expect({ query, result: { ok: fast } }).toStrictEqual({ query, result: expected });
      }
      expect({ query, result: await outcome(withFast, type, query, 'query') }).toStrictEqual({ query, result: expected });
    }
    expect(accepted).toBeGreaterThan(20);
  });

  it('refuses times without Z or an offset, with a message naming the field', async () => {
    for (const time of ['2026-11-22T12:00:00', '2026-11-22T12:00:00.000', '2026-11-22']) {
      const body = { ...BASES[3]![1], end_scheduled_at: time };
      expect(fastTransform(BookRideDto, body)).toBeUndefined();
      expect(await outcome(withFast, BookRideDto, body)).toEqual({
        error: [{ field: 'end_scheduled_at', message: 'end_scheduled_at must carry Z or a UTC offset (e.g. 2026-11-22T12:00:00Z or +01:00)' }],
      });
    }
    for (const time of ['2026-11-22T12:00:00Z', '2026-11-22T12:00:00.5-03:30', '2026-11-22T12:00+0100']) {
      expect(fastTransform(BookRideDto, { ...BASES[3]![1], end_scheduled_at: time })).toBeDefined();
    }
  });
});
