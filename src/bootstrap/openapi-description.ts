import type { RideEventType } from '../modules/realtime/realtime.events';

/**
 * Who receives each live event and what it carries (CONTRACT §5 and §11; the routing itself is
 * src/modules/realtime/live-routes.ts, the full account docs/realtime.md). A Record, so an event type
 * added to the channel fails to compile until the explorer lists it.
 */
const LIVE_EVENTS: Record<RideEventType, readonly [receivers: string, data: string]> = {
  ride_snapshot: [
    'the connecting user, first',
    '`{ride}` (null when none; a ride booked for later only once dispatched); passenger with a requested ride: `{ride, bids}`',
  ],
  ride_requested: [
    'online approved drivers of the category within MATCHING_RADIUS_KM of the pickup, by their latest heartbeat (younger than DRIVER_LOCATION_MAX_AGE_SECONDS); again to the drivers matched at that moment when the passenger raises `offered_fare`',
    '`{ride}`',
  ],
  bid_submitted: ["the ride's passenger", '`{bid}`'],
  ride_accepted: ['passenger, winning driver; rejected bidders (with `bid_status: "rejected"`, `ride.driver` null)', '`{ride}`'],
  ride_status_changed: [
    'passenger and assigned driver; on expiry the passenger and live bidders (`bid_status: "withdrawn"`); on dispatch of a ride booked for later (scheduled → requested, when drivers get ride_requested) the passenger',
    '`{ride}`',
  ],
  ride_cancelled: ['passenger, assigned driver, drivers with a live bid', '`{ride, cancelled_by}`'],
  chat_message: ["the ride's other party (passenger or assigned driver), never the sender", '`{message}`'],
  ride_tipped: ["the ride's driver, when the passenger tips", '`{tip, ride}`'],
  ride_rated: ['the rated party (driver or passenger)', '`{rating, ride}`'],
  driver_location: ["the passenger of the driver's non-final ride, at most once a second per ride", '`{driver_id, location}`'],
  sos_raised: ['every operator with a live socket, when a passenger or driver raises an SOS (CONTRACT §14)', '`{sos, ride}` (the ride without its start PIN)'],
  ride_check: ['passenger and driver of a started ride stopped RIDE_CHECK_STOP_MINUTES away from pickup and dropoff, once per stop', '`{reason: "long_stop"}`'],
  payment_failed: ['operators\' live sockets, when a card ride\'s hold lapsed at Stripe (`payment_status: "failed"`)', '`{ride}`'],
};

/** The event types in the order the explorer lists them. */
export const LIVE_EVENT_TYPES = Object.keys(LIVE_EVENTS) as RideEventType[];

// The type column is code spans (an event name is typed into client code, and a code span keeps it on one
// line), each followed by a no-break space: Swagger UI's table cells have no padding between columns.
const eventTable = [
  '| type | receivers | data |',
  '|---|---|---|',
  ...Object.entries(LIVE_EVENTS).map(([type, [receivers, data]]) => `| \`${type}\`&nbsp; | ${receivers} | ${data} |`),
].join('\n');

/**
 * The explorer's first screen (OpenAPI info.description): how to sign in comes first, because
 * every other operation needs it; then what the REST paths cannot say (conventions, the live channel).
 */
export const API_DESCRIPTION = `OTP sign-in, passenger booking with driver bids, driver operations and live ride events.

**Sign in first** (every operation but these needs the access token):

1. \`POST /api/v1/auth/send-otp\` with \`{"phone": "+15551234567"}\` (or \`{"email": "ada@example.com"}\`).
   Outside production, with no SMS or e-mail channel configured, the code is written to the service's log
   as \`OTP for +15551234567: 482913\`; with \`NODE_ENV=development OTP_DEV_FIXED_CODE=123456\` every code is 123456.
2. \`POST /api/v1/auth/verify-otp\` with \`{"phone": "+15551234567", "otp": "<code>"}\`: copy \`access_token\` from the answer.
3. **Authorize** (the padlock button): paste the token alone, without \`Bearer\`.
4. A new account (\`is_registered: false\`): \`POST /api/v1/auth/register\` with \`{"role": "passenger"}\` (or \`"driver"\`)
   and a name, then Authorize again with the \`access_token\` it returns.

Then a passenger estimates and books (\`POST /rides/estimate\`, \`POST /rides/book\`); a driver (another
browser profile) goes online (\`PUT /driver/status\`), sends a heartbeat (\`PUT /driver/location\`), lists
\`GET /driver/rides/nearby\` and bids (\`POST /driver/rides/{ride_id}/bid\`); the passenger accepts
(\`POST /rides/{ride_id}/bids/{bid_id}/accept\`). Watch a user's live events with
\`node scripts/watch-live.js --token <access_token>\`.

**Conventions.** snake_case JSON; times ISO 8601 UTC; money in major units with 2 decimals plus \`currency\`;
users and categories have integer ids, rides and bids UUIDs. Every error is
\`{statusCode, error, message}\` (ErrorResponseDto), plus \`details[{field, message}]\` on validation failures;
unknown request fields are rejected with 400, also on operations that take no body (send none, or \`{}\`),
and so are a body that is not a JSON object (\`null\`, an array), U+0000 or a lone surrogate in any string,
more than 1,000 keys in one object, 10,000 elements in one array or 20,000 values in all, nesting deeper than 32 levels
(\`details\` lists at most 10 problems); a request that has not fully arrived after REQUEST_TIMEOUT_MS
(30 s) is answered 408 and closed; 429s carry \`Retry-After\`.

**Live channel.** \`ws://<host>/api/v1/ws/rides/live?token=<access_token>\` on the same port. A missing or
refused token closes the socket with 4401 before any message. Every message is
\`{"type", "ride_id", "data", "at"}\`; ride events carry the REST ride object in \`data.ride\`.

${eventTable}

Client frames: \`{"type": "ping"}\` is answered with \`{"type": "pong", "at"}\`; anything else gets
\`{"type": "error", "data": {code, message}}\`. Close codes: 4401 refused token, 4403 user blocked or deleted,
4429 more than WS_MAX_SOCKETS_PER_USER (5) sockets of one user on this instance (the oldest is closed),
1008 message flood, 1009 frame too large, 1013 slow consumer, 1011 server failure, 1001 shutting down.`;
