import { ArgumentMetadata, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { orderedMessages } from './constraint-order';
import { fastTransform } from './fast-validation';
import { findUnstorableString, isStorableString } from './unstorable-strings';
import { screenForValidation } from './screen-for-validation';

export interface FieldProblem {
  field: string;
  message: string;
}

/** Most `details` a 400 carries: a body of a thousand bad fields must not be echoed back a thousand times. */
export const MAX_DETAILS = 10;
/** Longest field name or message echoed in `details` (an unknown key may be megabytes long). */
const MAX_ECHO_LENGTH = 200;

/** A request that failed validation; the filter renders it with `details` (the first MAX_DETAILS). */
export class ValidationFailedException extends Error {
  readonly details: FieldProblem[];
  /** How many problems there were, of which `details` lists the first MAX_DETAILS. */
  readonly total: number;

  /** `total`: how many problems there were when `details` already holds only some of them. */
  constructor(details: FieldProblem[], total = details.length) {
    super('Validation failed');
    this.total = Math.max(total, details.length);
    this.details = details.slice(0, MAX_DETAILS).map(({ field, message }) => ({ field: clip(field), message: clip(message) }));
  }

  get summary(): string {
    const first = this.details[0];
    if (!first) return 'Validation failed';
    return this.total === 1 ? first.message : `${first.message} (and ${this.total - 1} more)`;
  }
}

function clip(text: string): string {
  return text.length <= MAX_ECHO_LENGTH ? text : `${text.slice(0, MAX_ECHO_LENGTH - 1)}…`;
}

/** class-validator's words for a field the DTO does not declare (whitelist + forbidNonWhitelisted). */
export function unknownFieldProblem(field: string): FieldProblem {
  return { field, message: `property ${field} should not exist` };
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    for (const message of orderedMessages(error.constraints)) {
      problems.push({ field, message: message.replace(error.property, field) });
    }
    if (error.children?.length) problems.push(...flattenValidationErrors(error.children, field));
  }
  return problems;
}

/**
 * The global pipe. Its two shortcuts answer without a promise (Nest awaits whatever a pipe
 * returns, and each promise costs a hot route); the full validation answers with one.
 */
class AppValidationPipe implements PipeTransform<unknown, unknown> {
  constructor(
    private readonly full: ValidationPipe,
    private readonly fast: boolean,
  ) {}

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    // A custom parameter decorator (@CurrentUser) is never validated (validateCustomDecorators is
    // off) and ValidationPipe hands its value back unchanged: say so without its checks.
    if (metadata.type === 'custom') return value;
    // A named path or query parameter declared as a string (ride_id): ValidationPipe would hand the
    // string back unchanged, through a promise.
    if (metadata.metatype === String && typeof value === 'string' && metadata.data !== undefined) {
      if (!isStorableString(value)) throw unstorable(metadata.data);
      return value;
    }
    if (metadata.type === 'body' || metadata.type === 'query') {
      const screened = screenForValidation(metadata.metatype, value, MAX_DETAILS);
      if (screened.screened) {
        if (screened.unstorable !== undefined) throw unstorable(screened.unstorable);
        if (screened.unknownCount > 0) throw new ValidationFailedException(screened.unknown.map(unknownFieldProblem), screened.unknownCount);
        // A body or query that certainly passes (the shortcut compiled from the DTO's decorators)
        // skips the machinery below.
        if (this.fast) {
          const dto = fastTransform(metadata.metatype, screened.value);
          if (dto) return dto;
        }
        return this.full.transform(screened.value, metadata);
      }
    }
    // Anything no DTO describes: every string in it, at any depth.
    const path = findUnstorableString(value, metadata.data ?? '');
    if (path !== undefined) throw unstorable(path || metadata.type);
    return this.full.transform(value, metadata);
  }
}

/**
 * One rule for every string a client sends, whatever the DTO says (CONTRACT §1): PostgreSQL cannot
 * store U+0000, and a lone surrogate cannot be encoded as UTF-8 at all.
 */
function unstorable(field: string): ValidationFailedException {
  return new ValidationFailedException([{ field, message: `${field} contains a character that cannot be stored (U+0000 or an unpaired surrogate)` }]);
}

/**
 * whitelist + forbidNonWhitelisted: CONTRACT.md says unknown fields are rejected, never stored.
 * What a body may be at all (an object, nothing) is RequestBodyGuard's, before any pipe.
 * `fastPaths: false` (tests only) always runs the full validation, to compare against.
 */
export function createValidationPipe(options: { fastPaths?: boolean } = {}): PipeTransform<unknown, unknown> {
  return new AppValidationPipe(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new ValidationFailedException(flattenValidationErrors(errors)),
    }),
    options.fastPaths ?? true,
  );
}
