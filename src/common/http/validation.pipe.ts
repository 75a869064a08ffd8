import { ValidationError, ValidationPipe } from '@nestjs/common';

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

/** whitelist + forbidNonWhitelisted: CONTRACT.md says unknown fields are rejected, never stored. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationFailedException(flattenValidationErrors(errors)),
  });
}
