import type { Type } from '@nestjs/common';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { isStorableString } from './unstorable-strings';

/** The fields a DTO declares (any class-validator decorator) and, for nested DTOs, their classes. */
interface DtoShape {
  fields: ReadonlySet<string>;
  nested: ReadonlyMap<string, Type<object>>;
  /** False when an `each` validator looks inside arrays: structures then stay as they came. */
  flatten: boolean;
}

export interface Screened {
  /** False when the class declares nothing: the value was not looked at (class-validator answers). */
  screened: boolean;
  /** Dotted paths of the first `maxReported` fields no DTO declares, in the whitelist's order. */
  unknown: string[];
  /** How many undeclared fields there are in all. */
  unknownCount: number;
  /** The dotted path of the first declared string PostgreSQL cannot store (U+0000, lone surrogate). */
  unstorable: string | undefined;
  /** The value to validate: the original, or a copy whose undeclared structures were flattened. */
  value: unknown;
}

const shapes = new Map<Type<object>, DtoShape | null>();

/**
 * One pass over a body or query before the fast path and class-transformer, whose cost grows faster
 * than the number of keys it copies (1,000 keys: 5-20 ms of one core; a field holding 100 objects of
 * 1,000 keys: 300-430 ms; 40,000 keys: 2.35 s), while the keys are the caller's choice. Settled
 * here, from the same decorator metadata the whitelist reads (once per DTO class; one Set lookup
 * per key), and only over what the DTOs declare:
 * - the first declared string PostgreSQL cannot store (the caller refuses it: CONTRACT §1);
 * - the fields no DTO declares (the caller refuses them at once, as the whitelist would);
 * - a declared field that is not a nested DTO yet holds an object or an array gets an empty one of
 *   the same kind in its place: every decorator on such a field refuses a non-primitive whatever it
 *   contains, with the same message, so validation says what it would have said without
 *   class-transformer copying, key by key, a structure nothing reads.
 * A class that declares nothing is left to class-validator.
 */
export function screenForValidation(type: Type<object> | undefined, value: unknown, maxReported: number): Screened {
  const found: Found = { paths: [], count: 0, max: maxReported, unstorable: undefined };
  if (!type || !shapeOf(type)) return { screened: false, unknown: [], unknownCount: 0, unstorable: undefined, value };
  const screened = screen(type, value, '', found);
  return { screened: true, unknown: found.paths, unknownCount: found.count, unstorable: found.unstorable, value: screened };
}

interface Found {
  paths: string[];
  count: number;
  max: number;
  unstorable: string | undefined;
}

function screen(type: Type<object>, value: unknown, prefix: string, unknown: Found): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const shape = shapeOf(type);
  if (!shape) return value;
  if (Array.isArray(value)) {
    // A nested DTO validated element by element (ValidateNested on an array).
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const screened = screen(type, value[i], `${prefix}${i}.`, unknown);
      if (screened !== value[i]) (copy ??= [...value])[i] = screened;
    }
    return copy ?? value;
  }
  const object = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    if (!shape.fields.has(key)) {
      if (unknown.count++ < unknown.max) unknown.paths.push(prefix + key);
      continue;
    }
    const field = object[key];
    if (typeof field === 'string') {
      if (unknown.unstorable === undefined && !isStorableString(field)) unknown.unstorable = prefix + key;
      continue;
    }
    if (typeof field !== 'object' || field === null) continue;
    const nested = shape.nested.get(key);
    const screened = nested ? screen(nested, field, `${prefix}${key}.`, unknown) : !shape.flatten ? field : Array.isArray(field) ? [] : {};
    if (screened !== field) (copy ??= { ...object })[key] = screened;
  }
  return copy ?? value;
}

function shapeOf(type: Type<object>): DtoShape | null {
  let shape = shapes.get(type);
  if (shape !== undefined) return shape;
  // The arguments the whitelist passes for the pipe's options (no groups, not `always`, not strict).
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(type, '', false, false, undefined);
  if (metadatas.length === 0) {
    shape = null;
  } else {
    const fields = new Set(metadatas.map((m) => m.propertyName));
    const nested = new Map<string, Type<object>>();
    // Only where validation descends (ValidateNested), as the whitelist does.
    for (const field of new Set(metadatas.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION).map((m) => m.propertyName))) {
      const target = defaultMetadataStorage.findTypeMetadata(type, field)?.typeFunction() as unknown;
      if (typeof target === 'function' && ![Number, String, Boolean, Date, Object, Array].includes(target as never)) nested.set(field, target as Type<object>);
    }
    shape = { fields, nested, flatten: !metadatas.some((m) => m.each) };
  }
  shapes.set(type, shape);
  return shape;
}
