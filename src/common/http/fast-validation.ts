import type { Type } from '@nestjs/common';
import { isObject } from 'class-validator';

/** A field of a fast-validated DTO: a predicate built from class-validator's own checks, or a nested DTO. */
export type FastField =
  | { optional?: boolean; test: (value: unknown) => boolean; nested?: undefined }
  | { optional?: boolean; nested: Type<object>; test?: undefined };

interface FastDto {
  type: Type<object>;
  fields: Record<string, FastField>;
}

const registry = new Map<Type<object>, FastDto>();

/**
 * Declares, next to a hot DTO, the same rules as its decorators in a form the pipe can run without
 * class-transformer and class-validator's per-request machinery (metadata lookups, an executor, error
 * objects), which cost a hot route more than its own work. It is an accept-only shortcut: a body
 * that passes every field test becomes the same DTO instance that plainToInstance would build; any
 * other body (an unknown field, a missing or failing one, not an object) goes through the full
 * ValidationPipe, so errors, messages and details are exactly the usual ones. The tests use
 * class-validator's exported predicates (isNumber, isLatitude, min, ...), i.e. the functions the
 * decorators call. fast-validation.spec.ts checks each registered DTO against the full pipe and its
 * decorator metadata, so a rule added to the DTO but not here fails the tests.
 */
export function registerFastValidation<T extends object>(type: Type<T>, fields: Record<keyof T & string, FastField>): void {
  registry.set(type, { type, fields });
}

/** The registered rules of a DTO class (for the consistency test). */
export function fastValidationOf(type: Type<object>): Record<string, FastField> | undefined {
  return registry.get(type)?.fields;
}

/** The DTO instance for a body that certainly passes validation; undefined means "use the full pipe". */
export function fastTransform(type: Type<object> | undefined, value: unknown): object | undefined {
  const dto = type && registry.get(type);
  if (!dto || !isPlainObject(value)) return undefined;
  return accepts(dto, value) ? build(dto, value) : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return isObject(value) && !Array.isArray(value);
}

function accepts(dto: FastDto, value: Record<string, unknown>): boolean {
  for (const key in value) {
    if (!Object.hasOwn(dto.fields, key)) return false;
  }
  for (const key in dto.fields) {
    const field = dto.fields[key]!;
    const v = value[key];
    if (v === undefined || v === null) {
      // @IsOptional() skips every other check for null and undefined.
      if (field.optional) continue;
      return false;
    }
    if (field.nested) {
      const nested = registry.get(field.nested);
      if (!nested || !isPlainObject(v) || !accepts(nested, v)) return false;
    } else if (!field.test(v)) {
      return false;
    }
  }
  return true;
}

/** What plainToInstance builds: a new instance with the body's keys assigned, nested DTOs as instances. */
function build(dto: FastDto, value: Record<string, unknown>): object {
  const instance = new dto.type() as Record<string, unknown>;
  for (const key in value) {
    const v = value[key];
    const nested = dto.fields[key]!.nested;
    instance[key] = nested && v !== null && v !== undefined ? build(registry.get(nested)!, v as Record<string, unknown>) : v;
  }
  return instance;
}

/**
 * class-validator's isLatitude/isLongitude for a finite number, without the string they build and
 * the regular expressions they run on it. They test `${n}`, which is a plain decimal unless
 * 0 < |n| < 1e-6 (JavaScript writes those with an exponent, which the expressions refuse), so for a
 * finite number they come down to the range and that exception. fast-validation.spec.ts compares
 * both with class-validator's own over edge cases and random values.
 */
export function isLatitudeNumber(n: number): boolean {
  const abs = Math.abs(n);
  return abs <= 90 && (abs >= 1e-6 || abs === 0);
}

export function isLongitudeNumber(n: number): boolean {
  const abs = Math.abs(n);
  return abs <= 180 && (abs >= 1e-6 || abs === 0);
}
