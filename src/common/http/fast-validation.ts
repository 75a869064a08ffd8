import type { Type } from '@nestjs/common';
import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * The validation pipe's shortcut, compiled once per DTO class from the DTO's own decorators (the
 * class-validator and class-transformer metadata), so a rule is stated once, on the DTO.
 *
 * class-validator's per-request machinery (metadata lookups and grouping, an executor, a
 * ValidationError per property, promises) costs a hot route more than its own work. The compiled
 * form calls the same constraint instances the executor calls, in the same order, with the same
 * arguments. It only accepts: a body or query that passes every check becomes the instance that
 * plainToInstance builds; anything else (an unknown field, a failing check, an async constraint, a
 * value it cannot convert as class-transformer would) returns undefined, and the full pipe answers
 * with its usual errors. A DTO using a feature outside this subset (groups, `each`, @Transform,
 * @Expose/@Exclude, ...) is never compiled and always takes the full pipe.
 */
type Condition = (object: object, value: unknown) => boolean;

interface Constraint {
  validate(value: unknown, args: ValidationArguments): unknown;
}

interface Check {
  constraint: Constraint;
  metadata: ValidationMetadata;
}

interface CompiledField {
  key: string;
  conditions: Condition[];
  checks: Check[];
  /** How class-transformer converts a plain value of this field (@Type), if at all. */
  convert?: (value: unknown) => unknown;
  nested?: CompiledDto;
  /** ValidateNested: the value must be a plain object validated as `nested`. */
  validatesNested: boolean;
}

interface CompiledDto {
  type: Type<object>;
  fields: Map<string, CompiledField>;
}

const compiled = new Map<Type<object>, CompiledDto | null>();

/** The DTO instance for a value that certainly passes validation; undefined means "use the full pipe". */
export function fastTransform(type: Type<object> | undefined, value: unknown): object | undefined {
  if (!type) return undefined;
  const dto = compile(type);
  if (!dto || !isPlainObject(value)) return undefined;
  return build(dto, value);
}

/** Whether the DTO class has a compiled shortcut (for tests and start-up checks). */
export function isFastValidated(type: Type<object>): boolean {
  return compile(type) !== null;
}

function compile(type: Type<object>, seen = new Set<Type<object>>()): CompiledDto | null {
  const known = compiled.get(type);
  if (known !== undefined) return known;
  if (seen.has(type)) return null; // a recursive DTO: leave it to the full pipe
  seen.add(type);
  let result: CompiledDto | null;
  try {
    result = compileUncached(type, seen);
  } catch {
    result = null;
  }
  compiled.set(type, result);
  return result;
}

function compileUncached(type: Type<object>, seen: Set<Type<object>>): CompiledDto | null {
  if (defaultMetadataStorage.getExposedMetadatas(type).length || defaultMetadataStorage.getExcludedMetadatas(type).length) return null;
  const storage = getMetadataStorage();
  // The arguments the executor passes for the pipe's options (no groups, not `always`, not strict).
  const metadatas = storage.getTargetValidationMetadatas(type, '', false, false, undefined);
  if (metadatas.length === 0) return null;
  const fields = new Map<string, CompiledField>();
  for (const m of metadatas) {
    if (m.each || m.groups?.length || m.always || m.context) return null;
    let field = fields.get(m.propertyName);
    if (!field) {
      const key = m.propertyName;
      if (defaultMetadataStorage.findTransformMetadatas(type, key, TransformationType.PLAIN_TO_CLASS).length) return null;
      field = { key, conditions: [], checks: [], validatesNested: false };
      const typeMeta = defaultMetadataStorage.findTypeMetadata(type, key);
      if (typeMeta) {
        const target = typeMeta.typeFunction() as unknown;
        if (target === Number) field.convert = Number;
        else if (target === String) field.convert = String;
        else if (typeof target === 'function' && target !== Boolean && target !== Date && target !== Object && target !== Array) {
          const nested = compile(target as Type<object>, seen);
          if (!nested) return null;
          field.nested = nested;
        } else return null;
      }
      fields.set(key, field);
    }
    switch (m.type) {
      case ValidationTypes.CONDITIONAL_VALIDATION:
        field.conditions.push(m.constraints[0] as Condition);
        break;
      case ValidationTypes.CUSTOM_VALIDATION: {
        const constraints = storage.getTargetValidatorConstraints(m.constraintCls);
        if (constraints.length === 0 || constraints.some((c) => c.async)) return null;
        for (const c of constraints) field.checks.push({ constraint: c.instance as Constraint, metadata: m });
        break;
      }
      case ValidationTypes.NESTED_VALIDATION:
        if (!field.nested) return null;
        field.validatesNested = true;
        break;
      default:
        return null;
    }
  }
  for (const field of fields.values()) {
    // A nested class without ValidateNested, or ValidateNested without a class: the full pipe decides.
    if (field.nested && !field.validatesNested) return null;
  }
  return { type, fields };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Converts and checks like plainToInstance + validate; undefined as soon as anything is off. */
function build(dto: CompiledDto, value: Record<string, unknown>): object | undefined {
  const instance = new dto.type() as Record<string, unknown>;
  for (const key in value) {
    const field = dto.fields.get(key);
    if (!field || !Object.hasOwn(value, key)) return undefined;
    const raw = value[key];
    let converted: unknown = raw;
    if (raw !== null && raw !== undefined) {
      if (field.nested) {
        if (!isPlainObject(raw)) return undefined;
        converted = build(field.nested, raw);
        if (converted === undefined) return undefined;
      } else if (typeof raw === 'object') {
        return undefined; // class-transformer would copy it; not worth mirroring on a shortcut
      } else if (field.convert) {
        converted = field.convert(raw);
      }
    }
    instance[key] = converted;
  }
  for (const field of dto.fields.values()) {
    const v = instance[field.key];
    if (!field.conditions.every((condition) => condition(instance, v))) continue;
    for (const { constraint, metadata } of field.checks) {
      const validateIf = (metadata as { validateIf?: Condition }).validateIf;
      if (validateIf && !validateIf(instance, v)) continue;
      const args: ValidationArguments = { targetName: dto.type.name, property: field.key, object: instance, value: v, constraints: metadata.constraints };
      if (constraint.validate(v, args) !== true) return undefined;
    }
    if (field.validatesNested && (v === null || v === undefined)) return undefined;
  }
  return instance;
}
