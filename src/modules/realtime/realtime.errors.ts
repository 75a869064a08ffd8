/**
 * WebSocket close codes the server uses. 4xxx are application codes that mirror the HTTP status a
 * REST call would get, so an app can handle both the same way.
 */
export const WsCloseCode = {
  /** Shutdown of this instance: reconnect (another instance will take the connection). */
  GOING_AWAY: 1001,
  /** The client kept sending far above the message rate limit. */
  POLICY_VIOLATION: 1008,
  /** The token could not be checked or the snapshot built (not the client's fault): reconnect. */
  INTERNAL_ERROR: 1011,
  /** The client does not read fast enough: its send buffer passed WS_MAX_BUFFERED_BYTES. */
  SLOW_CONSUMER: 1013,
  /** Missing, malformed, expired or wrong-type token, or a user who may not sign in. Sent before any event. */
  UNAUTHORIZED: 4401,
  /** The user was blocked, deactivated or deleted while connected. */
  ACCESS_REVOKED: 4403,
  /** The user opened more than WS_MAX_SOCKETS_PER_USER sockets: the oldest is closed. */
  TOO_MANY_SOCKETS: 4429,
} as const;

export type WsCloseCodeValue = (typeof WsCloseCode)[keyof typeof WsCloseCode];
