import { ValidationPipe } from '@nestjs/common';
import { RegisterDto } from '../../modules/auth/dto/register.dto';
import { UpdateLocationDto } from '../../modules/drivers/dto/update-location.dto';
import { BookRideDto } from '../../modules/rides/dto/book-ride.dto';
import { screenForValidation } from './screen-for-validation';
import { createValidationPipe, flattenValidationErrors, ValidationFailedException } from './validation.pipe';

/** class-validator as Nest runs it, without the screening: what the answer must stay equal to. */
const plain = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => new ValidationFailedException(flattenValidationErrors(errors)),
});
const screened = createValidationPipe({ fastPaths: false });

async function problems(pipe: { transform(v: unknown, m: never): unknown }, type: new () => object, body: unknown): Promise<unknown> {
  try {
    await pipe.transform(structuredClone(body), { type: 'body', metatype: type, data: undefined } as never);
    return 'valid';
  } catch (err) {
    return { details: (err as ValidationFailedException).details, total: (err as ValidationFailedException).total };
  }
}

const LOCATION = { address: '1 Market St', latitude: 37.79, longitude: -122.39 };
const objectOf = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

describe('screening before class-transformer', () => {
  it('names undeclared fields at any depth of nested DTOs, as the whitelist does, and counts past the cap', () => {
    const body = { pickup: { ...LOCATION, extra: 1 }, dropoff: [{ ...LOCATION, x: 1 }], fare: 1, ...objectOf(20) };
    const result = screenForValidation(BookRideDto, body, 5);
    expect(result.unknown).toEqual(['pickup.extra', 'dropoff.0.x', 'fare', 'k0', 'k1']);
    expect(result.unknownCount).toBe(23);
  });

  it('a scalar field holding a structure is validated as an empty one of its kind; the request body is not touched', () => {
    const body = { first_name: [objectOf(3)], last_name: { a: [1] }, role: 'passenger' };
    const result = screenForValidation(RegisterDto, body, 10);
    expect(result.value).toEqual({ first_name: [], last_name: {}, role: 'passenger' });
    expect(body.first_name).toEqual([objectOf(3)]);
    expect(screenForValidation(UpdateLocationDto, { latitude: 1, longitude: 2 }, 10).value).toEqual({ latitude: 1, longitude: 2 });
  });

  it.each([
    [RegisterDto, { role: 'passenger', first_name: ['x', 'y'], last_name: { a: 1 }, push_token: [[1]], email: [] }],
    [RegisterDto, { role: ['passenger'], phone: { '+1': 1 }, profile_picture_base64: [''] }],
    [
      BookRideDto,
      {
        pickup: { ...LOCATION, address: ['x'] },
        dropoff: { ...LOCATION, latitude: { v: 1 } },
        ride_type: ['one_way'],
        vehicle_category_id: [1],
        payment_method: {},
      },
    ],
    [UpdateLocationDto, { latitude: [37.7], longitude: { x: 1 }, heading: [[]], speed: {}, accuracy: [1, 2] }],
  ])('%p: the same answer as class-validator alone, for structures in scalar fields', async (type, body) => {
    expect(await problems(screened, type, body)).toEqual(await problems(plain, type, body));
  });

  it('a field holding 100 objects of 1,000 keys costs a key scan, not a copy (refused the same way)', async () => {
    const body = { role: 'passenger', first_name: Array.from({ length: 100 }, () => objectOf(1000)) };
    expect(await problems(screened, RegisterDto, body)).toEqual({
      details: [
        { field: 'first_name', message: 'first_name must be a string' },
        { field: 'first_name', message: 'first_name must be shorter than or equal to 100 characters' },
      ],
      total: 2,
    });
  });
});
