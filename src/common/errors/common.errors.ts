import { DomainError } from './domain.error';

/** Failures that belong to no single module: input validation, limits, generic access rules. */
export type CommonErrorCode = 'VALIDATION_FAILED' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'PAYLOAD_TOO_LARGE' | 'RATE_LIMITED';

export class CommonError extends DomainError<CommonErrorCode> {
  static validation(field: string, message: string): CommonError {
    return new CommonError('VALIDATION_FAILED', message, [{ field, message }]);
  }

  static rateLimited(retryAfterSeconds: number): CommonError {
    return new CommonError('RATE_LIMITED', 'Too many requests. Please try again later.', undefined, retryAfterSeconds);
  }
}
