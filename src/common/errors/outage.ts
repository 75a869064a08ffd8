/** Seconds a client is asked to wait (`Retry-After`) when a dependency is unreachable. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

export interface Outage {
  dependency: 'database' | 'redis';
  message: string;
}

/**
 * SQLSTATEs that mean "the server cannot serve you now", not "your query is wrong": class 08
 * (connection exception), 57P01-57P03 (admin/crash shutdown, cannot connect now), 53300 (too many
 * connections) and 57014 (statement timeout: the server is overloaded or a lock is stuck).
 */
const OUTAGE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** Socket-level failures of a connection to PostgreSQL. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** Messages pg and pg-pool give to connection failures that carry no code. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/, // "Connection terminated unexpectedly", "... due to connection timeout"
  /^timeout exceeded when trying to connect$/, // pg-pool: no connection within connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
];

/** What ioredis rejects a command with while its connection is down (after its retries, or at once without an offline queue). */
const REDIS_MESSAGES = [
  /^Reached the max retries per request limit/,
  /^Connection is closed\.?$/,
  /^Stream isn't writeable and enableOfflineQueue options is false$/,
];

/**
 * Whether a failure means a dependency is unreachable (a 503 with Retry-After, not a 500), and which.
 * TypeORM wraps driver errors (QueryFailedError.driverError), Node wraps several address attempts
 * (AggregateError.errors): the chain is searched a few levels deep.
 */
export function recogniseOutage(err: unknown): Outage | undefined {
  if (isDatabaseConnectionFailure(err, 0)) {
    return { dependency: 'database', message: 'Service temporarily unavailable: the database cannot be reached. Please retry shortly.' };
  }
  if (isRedisConnectionFailure(err)) {
    return { dependency: 'redis', message: 'Service temporarily unavailable: Redis cannot be reached. Please retry shortly.' };
  }
  return undefined;
}

function isRedisConnectionFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.some((pattern) => pattern.test(err.message));
}

function isDatabaseConnectionFailure(err: unknown, depth: number): boolean {
  if (typeof err !== 'object' || err === null || depth > 3) return false;
  const { code, message, driverError, cause, errors } = err as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (code.length === 5 && (code.startsWith('08') || OUTAGE_SQLSTATES.has(code))) return true;
    if (NETWORK_CODES.has(code)) return true;
  }
  if (typeof message === 'string' && CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseConnectionFailure(inner, depth + 1))) return true;
  return isDatabaseConnectionFailure(driverError, depth + 1) || isDatabaseConnectionFailure(cause, depth + 1);
}
