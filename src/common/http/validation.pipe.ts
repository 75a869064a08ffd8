import { ArgumentMetadata, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { fastTransform } from './fast-validation';

export interface FieldProblem {
  field: string;
  message: string;
}

/** A request that failed DTO validation; the filter renders it with `details`. */
export class ValidationFailedException extends Error {
  constructor(readonly details: FieldProblem[]) {
    super('Validation failed');
  }

  get summary(): string {
    const first = this.details[0];
    if (!first) return 'Validation failed';
    return this.details.length === 1 ? first.message : `${first.message} (and ${this.details.length - 1} more)`;
  }
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      problems.push({ field, message: message.replace(error.property, field) });
    }
    if (error.children?.length) problems.push(...flattenValidationErrors(error.children, field));
  }
  return problems;
}

/**
 * A JSON body that is an array, a string or a number cannot be a DTO: left to class-transformer,
 * an array would be validated element-wise or slip through an all-optional DTO. `null` and an
 * absent body are validated as `{}`, so required fields are reported by name.
 */
class BodyShapeValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.data === undefined && this.toValidate(metadata)) {
      if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) {
        throw new ValidationFailedException([{ field: 'body', message: 'Request body must be a JSON object' }]);
      }
    }
    return super.transform(value, metadata);
  }
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
    // A body or query that certainly passes (the shortcut compiled from the DTO's decorators)
    // skips the machinery below.
    if (this.fast && (metadata.type === 'body' || metadata.type === 'query')) {
      const dto = fastTransform(metadata.metatype, value);
      if (dto) return dto;
    }
    return this.full.transform(value, metadata);
  }
}

/**
 * whitelist + forbidNonWhitelisted: CONTRACT.md says unknown fields are rejected, never stored.
 * `fastPaths: false` (tests only) always runs the full validation, to compare against.
 */
export function createValidationPipe(options: { fastPaths?: boolean } = {}): PipeTransform<unknown, unknown> {
  return new AppValidationPipe(
    new BodyShapeValidationPipe({
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
