import {
  ARRAY_NOT_EMPTY,
  IS_ARRAY,
  IS_BOOLEAN,
  IS_DATE,
  IS_DATE_STRING,
  IS_DEFINED,
  IS_ENUM,
  IS_IN,
  IS_INT,
  IS_ISO8601,
  IS_NOT_EMPTY,
  IS_NOT_EMPTY_OBJECT,
  IS_NUMBER,
  IS_NUMBER_STRING,
  IS_OBJECT,
  IS_STRING,
  IS_UUID,
  ValidationTypes,
} from 'class-validator';

/**
 * class-validator reports a property's failed constraints in the order its decorators were applied,
 * which is bottom-up: a DTO that reads `@IsString() @IsNotEmpty() @MaxLength(300)` reports a missing
 * value as "too long" first. The first message is the one a client shows, so it must name what is
 * actually wrong: absence first, then the wrong kind of value, then bounds and formats.
 */
const PRESENCE = new Set([IS_DEFINED, IS_NOT_EMPTY, IS_NOT_EMPTY_OBJECT, ARRAY_NOT_EMPTY]);
const KIND = new Set([
  IS_STRING,
  IS_NUMBER,
  IS_INT,
  IS_BOOLEAN,
  IS_ENUM,
  IS_IN,
  IS_OBJECT,
  IS_ARRAY,
  ValidationTypes.NESTED_VALIDATION,
  IS_DATE,
  IS_DATE_STRING,
  IS_ISO8601,
  IS_NUMBER_STRING,
  IS_UUID,
]);

function rank(constraint: string): number {
  if (PRESENCE.has(constraint)) return 0;
  if (KIND.has(constraint)) return 1;
  return 2;
}

/** The messages of one property's failed constraints, most fundamental first (stable within a rank). */
export function orderedMessages(constraints: Record<string, string> | undefined): string[] {
  if (!constraints) return [];
  return Object.keys(constraints)
    .map((name, index) => ({ name, index }))
    .sort((a, b) => rank(a.name) - rank(b.name) || a.index - b.index)
    .map(({ name }) => constraints[name]!);
}
