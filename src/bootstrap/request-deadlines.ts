import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody } from '../common/http/error-body';

export interface RequestTimeoutOptions {
  requestTimeout: number;
  http: { requestTimeout: number; headersTimeout: number; connectionsCheckingInterval: number };
}

/**
 * REQUEST_TIMEOUT_MS bounds how long a request may take to arrive, headers and body: a body that
 * trickles in a byte at a time would otherwise hold its connection (and its parser) for ever. Node
 * answers 408 and closes the connection. It checks the deadlines every connectionsCheckingInterval
 * (30 s by default, which would let a 1 s timeout run 31 s), so the check runs at a tenth of the
 * timeout, at most once a second: one pass in C++ over this instance's HTTP connections that are
 * still receiving. Headers get the same deadline (Node requires headersTimeout ≤ requestTimeout).
 * Fastify sets `requestTimeout` on the server itself after creating it, so it is given twice.
 */
export function requestTimeouts(timeoutMs: number): RequestTimeoutOptions {
  const checkEvery = Math.max(50, Math.min(1000, Math.floor(timeoutMs / 10)));
  return { requestTimeout: timeoutMs, http: { requestTimeout: timeoutMs, headersTimeout: timeoutMs, connectionsCheckingInterval: checkEvery } };
}

/**
 * Errors Node raises on a connection before Fastify has a request to answer (the request timeout,
 * oversized headers, malformed HTTP), answered in the contract's error shape; the connection closes.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message]: [number, string] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request did not arrive within the time allowed']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request headers are too large']
        : [400, 'Malformed HTTP request'];
  if (socket.writable) {
    const body = JSON.stringify(errorBody(status, message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
