import type { Type } from '@nestjs/common';
import { IsInt, ValidateNested } from 'class-validator';
import fc from 'fast-check';
import { RefreshTokenDto } from '../../modules/auth/dto/refresh-token.dto';
import { NearbyRidesQueryDto } from '../../modules/drivers/dto/nearby-rides-query.dto';
import { UpdateLocationDto } from '../../modules/drivers/dto/update-location.dto';
import { BookRideDto } from '../../modules/rides/dto/book-ride.dto';
import { EstimateRideDto } from '../../modules/pricing/dto/estimate-ride.dto';
import { LocationDto } from '../../modules/pricing/dto/location.dto';
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
const QUERY_VALUES: unknown[] = [
  '52.52',
  '-33.9',
  '0',
  '90',
  '90.0',
  '-90',
  '90.0001',
  '180',
  '-180.5',
  '0.1',
  '0.05',
  '50',
  '50.01',
  '5',
  '+5',
  '005',
  '1e1',
  '0x10',
  '',
  ' 5',
  'abc',
  'NaN',
  'Infinity',
  '0.0000001',
  '12.123456789012345678',
  ['1', '2'],
  undefined,
];

const ODD_VALUES: unknown[] = [
  null,
  '',
  ' ',
  'abc',
  '12',
  0,
  -0,
  1,
  -1,
  1.5,
  1e-7,
  90,
  90.0001,
  -90,
  180,
  -180.5,
  360,
  361,
  150,
  150.5,
  100000,
  100001,
  1440,
  1441,
  100,
  101,
  2 ** 53,
  true,
  false,
  {},
  [],
  [1],
  { address: 'x' },
  { ...LOCATION, extra: 1 },
  { ...LOCATION, latitude: '37.7' },
  { ...LOCATION, address: '' },
  { ...LOCATION, address: 'a'.repeat(301) },
  LOCATION,
  '2026-11-22T12:00:00.000Z',
  '2026-11-22T12:00:00',
  '2026-11-22T12:00:00+0530',
  '2026-11-22',
  '2026-13-01T00:00:00Z',
  'one_way',
  'per_hour',
  'delivery',
  'ONE_WAY',
  'cash',
  'wallet',
  'card',
  'x'.repeat(40),
  'x'.repeat(41),
  'x'.repeat(2049),
  '😀'.repeat(30),
];

const EXTRA_KEYS = ['extra', 'constructor', 'toString'];

type Mutation = (body: Record<string, unknown>) => void;

/** Every single change to a body: each top-level and nested field removed or set to each odd value, and unknown keys. */
function singleMutations(base: Record<string, unknown>): Mutation[] {
  const mutations: Mutation[] = EXTRA_KEYS.map((key) => (body) => void (body[key] = 1));
  for (const key of Object.keys(base)) {
    mutations.push((body) => void delete body[key]);
    for (const value of ODD_VALUES) mutations.push((body) => void (body[key] = structuredClone(value)));
    const nested = base[key];
    if (typeof nested !== 'object' || nested === null) continue;
    for (const inner of Object.keys(nested).concat('extra')) {
      mutations.push((body) => void delete (body[key] as Record<string, unknown>)[inner]);
      for (const value of ODD_VALUES) mutations.push((body) => void ((body[key] as Record<string, unknown>)[inner] = structuredClone(value)));
    }
  }
  return mutations;
}

function mutated(base: Record<string, unknown>, mutations: Mutation[]): Record<string, unknown> {
  const body = structuredClone(base);
  for (const mutate of mutations) {
    try {
      mutate(body);
    } catch {
      // a nested change on a field an earlier change removed or replaced by a scalar: skipped
    }
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

  /**
   * The full pipe is the reference. When the shortcut answers, it must be with what the full pipe
   * gives; when it does not, the app's pipe runs the full pipe itself, so agreement needs no check.
   */
  async function expectAgreement(type: Type<object>, body: Record<string, unknown>): Promise<boolean> {
    const fast = fastTransform(type, structuredClone(body));
    if (fast === undefined) return false;
    const expected = await outcome(full, type, body);
    expect({ body, result: { ok: fast } }).toStrictEqual({ body, result: expected });
    expect({ body, result: await outcome(withFast, type, body) }).toStrictEqual({ body, result: expected });
    return true;
  }

  it.each(BASES)('%p: on every single-field change, fast accepts only what the full pipe accepts, and the pipe answers the same', async (type, base) => {
    let accepted = 0;
    for (const mutation of singleMutations(base)) if (await expectAgreement(type, mutated(base, [mutation]))) accepted += 1;
    expect(accepted).toBeGreaterThan(type === RefreshTokenDto ? 5 : 20);
  });

  it.each(BASES)(
    '%p: on 500 combinations of changes the full pipe accepts one by one, plus any other (fast-check, fixed seed), the same',
    async (type, base) => {
      const all = singleMutations(base);
      const valid: Mutation[] = [];
      for (const mutation of all) if ('ok' in ((await outcome(full, type, mutated(base, [mutation]))) as object)) valid.push(mutation);
      const pick = (list: Mutation[]) => fc.integer({ min: 0, max: list.length - 1 }).map((i) => list[i]!);
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(pick(valid), { minLength: 1, maxLength: 3 }), fc.option(pick(all), { freq: 3 }), async (changes, other) => {
          if (await expectAgreement(type, mutated(base, other ? [...changes, other] : changes))) accepted += 1;
        }),
        { numRuns: 500, seed: type.name.length * 7919 },
      );
      expect(accepted).toBeGreaterThan(type === RefreshTokenDto ? 5 : 100);
    },
  );

  it.each(BASES)('%p: the full pipe answers a body the shortcut does not take exactly as the app pipe does', async (type, base) => {
    const body = mutated(base, [(b) => void (b.extra = 1)]);
    expect(fastTransform(type, structuredClone(body))).toBeUndefined();
    expect(await outcome(withFast, type, body)).toStrictEqual(await outcome(full, type, body));
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
