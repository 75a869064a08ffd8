import { STATUS_CODES } from 'node:http';

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  details?: ReadonlyArray<{ field: string; message: string }>;
  correlation_id?: string;
}

/** The one error shape of CONTRACT.md section 2. */
export function errorBody(statusCode: number, message: string, details?: ReadonlyArray<{ field: string; message: string }>): ErrorBody {
  const body: ErrorBody = { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
  if (details && details.length > 0) body.details = details;
  return body;
}

/** Errors Fastify raises itself (before a route handler runs) and the sentence a client gets for each. */
export function describeFrameworkError(err: unknown): { status: number; message: string } | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { statusCode, code } = err as { statusCode?: unknown; code?: unknown };
  if (typeof statusCode !== 'number' || statusCode < 400 || statusCode >= 500) return undefined;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: 'Request body is larger than the allowed size' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: 'Unsupported content type; send application/json' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: 'Request body is empty but Content-Type is application/json' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, message: 'Content-Length does not match the request body' };
    case 'FST_ERR_BAD_URL':
      return { status: 400, message: 'Malformed URL: invalid percent-encoding in the path' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, message: 'A path segment is longer than allowed' };
    default:
      if (err instanceof SyntaxError || code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
        return { status: 400, message: 'Malformed JSON in request body' };
      }
      return { status: statusCode, message: STATUS_CODES[statusCode] ?? 'Bad request' };
  }
}
