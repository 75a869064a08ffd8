import type { HttpStatus } from '@nestjs/common';

/** Injection token of the error-code → HTTP status map the composition root provides (bootstrap/error-statuses.ts). */
export const ERROR_STATUSES = Symbol('ERROR_STATUSES');

export type ErrorStatuses = Readonly<Record<string, HttpStatus>>;
