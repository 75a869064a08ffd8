import { NEARBY_MAX_RADIUS_KM } from '../modules/drivers/dto/nearby-rides-query.dto';
import { STATUS_CODES } from 'node:http';
import { OPERATOR_PERMISSIONS, type OperatorAction } from '../common/auth/operator-permissions';
import { NOT_ALLOWED_FOR_ROLE, OPERATOR_TOKEN_CONFINED, OPERATORS_ONLY } from '../common/guards/operator.guard';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AUTH_MESSAGES } from '../modules/auth/auth.errors';
import { BID_MESSAGES } from '../modules/rides/bids/bids.errors';
import { CHAT_MESSAGES } from '../modules/rides/chat/ride-chat.errors';
import { MESSAGE_LENGTH_REFUSAL } from '../modules/rides/chat/ride-chat.rules';
import { DRIVER_MESSAGES } from '../modules/drivers/drivers.errors';
import { RIDE_MESSAGES } from '../modules/rides/rides.errors';
import { PRICING_MESSAGES } from '../modules/pricing/pricing.errors';
import { PICKUP_AT_RANGE_MESSAGE } from '../modules/rides/booking/pickup-at.rules';
import { USER_MESSAGES } from '../modules/users/users.errors';
import { WALLET_MESSAGES } from '../modules/wallets/wallets.errors';
import { PAYMENT_MESSAGES } from '../modules/payments/payments.errors';
import { type Example, rideRequestExamples } from './openapi-ride-examples';

export interface RouteGuards {
  roles?: string[];
  requiresRegistration: boolean;
  isPublic?: boolean;
  /** Under /api/v1/admin/. */
  admin?: boolean;
  operatorAction?: OperatorAction;
  openToOperators?: boolean;
}

export function describeRouteGuards(guards: RouteGuards): string | undefined {
  if (guards.admin) {
    const roles = guards.operatorAction ? OPERATOR_PERMISSIONS[guards.operatorAction].join(', ') : 'no one';
    return `${OPERATORS_ONLY} (any other account); ${NOT_ALLOWED_FOR_ROLE} (\`${guards.operatorAction}\` is for: ${roles})`;
  }
  const reasons: string[] = [];
  if (guards.roles?.length) reasons.push(`the caller is not a ${guards.roles.join(' or ')}`);
  if (guards.requiresRegistration) reasons.push('the account has not completed registration');
  if (!guards.isPublic && !guards.openToOperators) reasons.push('an operator account (its tokens work under /api/v1/admin/ only)');
  return reasons.length ? `Forbidden: ${reasons.join(', or ')}` : undefined;
}

/** The guards' own sentences for a 403 (src/common/guards/). */
function guardMessages(guard: RouteGuards | undefined): string[] {
  if (!guard) return [];
  if (guard.admin) return guard.operatorAction === 'read' ? [OPERATORS_ONLY] : [OPERATORS_ONLY, NOT_ALLOWED_FOR_ROLE];
  const messages: string[] = [];
  if (guard.roles?.length) messages.push(`This endpoint is only for ${guard.roles.join(' or ')} accounts`);
  if (guard.requiresRegistration) messages.push('Complete registration before using this endpoint');
  if (!guard.isPublic && !guard.openToOperators) messages.push(OPERATOR_TOKEN_CONFINED);
  return messages;
}

type Schema = Record<string, unknown>;
type Operation = {
  operationId?: string;
  summary?: string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: Schema; example?: unknown; examples?: Record<string, Example> }> };
  responses: Record<
    string,
    { description?: string; content?: Record<string, { schema?: Schema; examples?: Record<string, Example> }>; headers?: Record<string, unknown> }
  >;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const ERROR_REF = '#/components/schemas/ErrorResponseDto';

const CARDS_DOWN = { '400': [PAYMENT_MESSAGES.CARD_PAYMENTS_UNAVAILABLE], '503': [PAYMENT_MESSAGES.PAYMENT_PROVIDER_UNAVAILABLE] };
const PAYOUTS_DOWN = { '400': [PAYMENT_MESSAGES.PAYOUTS_UNAVAILABLE], '503': [PAYMENT_MESSAGES.PAYMENT_PROVIDER_UNAVAILABLE] };

/** Messages an operation really returns, by operationId and status (the rest come from the generic table below). */
const OPERATION_MESSAGES: Record<string, Record<string, string[]>> = {
  AuthController_sendOtp: {
    '400': [
      AUTH_MESSAGES.EMAIL_OR_PHONE_REQUIRED,
      AUTH_MESSAGES.INVALID_PHONE,
      AUTH_MESSAGES.PHONE_SIGN_IN_UNAVAILABLE,
      AUTH_MESSAGES.EMAIL_SIGN_IN_UNAVAILABLE,
    ],
    '503': [AUTH_MESSAGES.OTP_DELIVERY_FAILED],
    '404': ['User not found'],
    '409': [AUTH_MESSAGES.IDENTITY_DIFFERENT_ACCOUNTS, AUTH_MESSAGES.PHONE_LINKED_TO_OTHER_EMAIL],
  },
  AuthController_verifyOtp: {
    '400': [AUTH_MESSAGES.INVALID_OTP, AUTH_MESSAGES.OTP_EXPIRED],
    '403': [AUTH_MESSAGES.ACCOUNT_BLOCKED],
    '404': [AUTH_MESSAGES.NO_PENDING_SIGNUP],
    '409': [AUTH_MESSAGES.IDENTITY_MISMATCH],
  },
  AuthController_register: {
    '400': [AUTH_MESSAGES.PHONE_MISMATCH, AUTH_MESSAGES.REGISTRATION_CONFLICT, USER_MESSAGES.PICTURE_INVALID],
    '403': [AUTH_MESSAGES.VERIFY_BEFORE_REGISTRATION],
    '404': ['User not found'],
    '409': [AUTH_MESSAGES.ACCOUNT_ALREADY_COMPLETED, 'Email already in use'],
  },
  AuthController_login: {
    '401': [AUTH_MESSAGES.INVALID_CREDENTIALS],
    '403': [AUTH_MESSAGES.VERIFY_BEFORE_LOGIN, AUTH_MESSAGES.ACCOUNT_NOT_ACTIVE, AUTH_MESSAGES.ACCOUNT_BLOCKED],
  },
  AuthController_refresh: {
    '401': [AUTH_MESSAGES.INVALID_REFRESH_TOKEN],
    '403': [AUTH_MESSAGES.ACCOUNT_BLOCKED],
    '409': [AUTH_MESSAGES.TOKEN_ISSUE_CONFLICT],
  },
  UsersController_me: { '403': [AUTH_MESSAGES.ACCOUNT_NOT_ACTIVE, AUTH_MESSAGES.ACCOUNT_BLOCKED], '404': [USER_MESSAGES.USER_NOT_FOUND] },
  UsersController_updateProfile: {
    '400': [USER_MESSAGES.PICTURE_INVALID],
    '403': [AUTH_MESSAGES.ACCOUNT_NOT_ACTIVE, AUTH_MESSAGES.ACCOUNT_BLOCKED],
    '404': [USER_MESSAGES.USER_NOT_FOUND],
    '409': [USER_MESSAGES.EMAIL_IN_USE],
    '413': [USER_MESSAGES.PICTURE_TOO_LARGE, 'Request body is larger than the allowed size'],
  },
  UsersController_deleteAccount: {
    '403': [AUTH_MESSAGES.ACCOUNT_NOT_ACTIVE, AUTH_MESSAGES.ACCOUNT_BLOCKED],
    '404': [USER_MESSAGES.USER_NOT_FOUND],
    '409': [USER_MESSAGES.ACCOUNT_HAS_ACTIVE_RIDE],
  },
  WalletsController_getWallet: { '404': [WALLET_MESSAGES.WALLET_NOT_FOUND] },
  RidesController_estimate: { '404': [PRICING_MESSAGES.CATEGORY_NOT_FOUND] },
  RidesController_book: {
    '404': [PRICING_MESSAGES.CATEGORY_NOT_FOUND],
    '409': [RIDE_MESSAGES.ACTIVE_RIDE_EXISTS, RIDE_MESSAGES.IDEMPOTENCY_KEY_REUSED, RIDE_MESSAGES.SCHEDULED_RIDE_LIMIT],
  },
  RidesController_cancel: { '409': [RIDE_MESSAGES.RIDE_NOT_CANCELLABLE] },
  RidesController_changeStatus: { '409': ['Cannot change a ride from completed to started', RIDE_MESSAGES.INVALID_STATUS_TRANSITION] },
  BidsController_submit: {
    '403': [BID_MESSAGES.DRIVER_CANNOT_BID, DRIVER_MESSAGES.DRIVER_NOT_APPROVED],
    '409': [RIDE_MESSAGES.RIDE_NOT_REQUESTED, BID_MESSAGES.DRIVER_BUSY, BID_MESSAGES.BID_NOT_PENDING],
  },
  BidsController_accept: {
    '404': [BID_MESSAGES.BID_NOT_FOUND, RIDE_MESSAGES.RIDE_NOT_FOUND],
    '409': [RIDE_MESSAGES.RIDE_NOT_REQUESTED, BID_MESSAGES.BID_NOT_PENDING, BID_MESSAGES.DRIVER_BUSY, WALLET_MESSAGES.INSUFFICIENT_FUNDS],
  },
  DriversController_setStatus: { '403': [DRIVER_MESSAGES.DRIVER_NOT_APPROVED] },
  RideChatController_send: {
    '400': [MESSAGE_LENGTH_REFUSAL],
    '404': [RIDE_MESSAGES.RIDE_NOT_FOUND],
    '409': [CHAT_MESSAGES.CHAT_CLOSED],
  },
  RideChatController_list: { '404': [RIDE_MESSAGES.RIDE_NOT_FOUND] },
  RidesController_raiseOffer: { '409': [RIDE_MESSAGES.RIDE_NOT_REQUESTED] },
  TipsController_tip: {
    '409': [RIDE_MESSAGES.RIDE_NOT_COMPLETED, RIDE_MESSAGES.TIP_ALREADY_PAID, RIDE_MESSAGES.TIP_WINDOW_CLOSED, 'Wallet balance does not cover the tip'],
  },
  CardsController_setup: CARDS_DOWN,
  CardsController_list: CARDS_DOWN,
  CardsController_setDefault: { ...CARDS_DOWN, '404': [PAYMENT_MESSAGES.CARD_NOT_FOUND] },
  CardsController_remove: { ...CARDS_DOWN, '404': [PAYMENT_MESSAGES.CARD_NOT_FOUND], '409': [PAYMENT_MESSAGES.CARD_IN_USE] },
  PayoutsController_account: PAYOUTS_DOWN,
  PayoutsController_payOut: {
    '400': [...PAYOUTS_DOWN['400'], 'Payout must be at least 10.00 USD'],
    '409': [
      PAYMENT_MESSAGES.PAYOUT_ACCOUNT_NOT_READY,
      PAYMENT_MESSAGES.PAYOUT_EXCEEDS_BALANCE,
      PAYMENT_MESSAGES.PAYOUT_REFUSED,
      PAYMENT_MESSAGES.PAYOUT_KEY_REUSED,
    ],
    '503': PAYOUTS_DOWN['503'],
  },
  StripeWebhooksController_receive: { '400': [PAYMENT_MESSAGES.INVALID_WEBHOOK] },
};

/** Operations whose body is never parsed (Stripe signs the raw bytes): their 400s are only their own. */
const RAW_BODY_OPERATIONS = new Set(['StripeWebhooksController_receive']);

/** The offer rules' 400s (rides/offers/offer.rules.ts), as one would read them. */
const OFFER_REFUSALS: Record<string, string> = {
  RidesController_book: 'offered_fare must be at least 7.00 (70% of the estimated total 10.00)',
  RidesController_raiseOffer: 'offered_fare must be higher than the current offer (12.00)',
};

const GENERIC_MESSAGES: Record<string, string> = {
  '401': AUTH_MESSAGES.INVALID_ACCESS_TOKEN,
  '413': 'Request body is larger than the allowed size',
  '414': 'A path segment is longer than allowed',
  '415': 'Unsupported content type; send application/json',
  '429': 'Too many requests. Please try again later.',
};

/**
 * Post-processing of the generated document: what decorators cannot say per operation and status
 * (error examples, Retry-After, 2xx descriptions, request examples). Nullable fields are written for
 * OAS 3.1 afterwards (openapi-3-1.ts).
 */
export function documentResponses(document: OpenAPIObject, guards: Map<string, RouteGuards>, now: Date = new Date()): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (/^2/.test(status) && !response.description) response.description = operation.summary ?? STATUS_CODES[Number(status)] ?? 'Success';
        if (status === '429' || status === '503') {
          response.headers = {
            ...response.headers,
            'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
          };
        }
        const media = response.content?.['application/json'];
        if (Number(status) >= 400 && media?.schema?.$ref === ERROR_REF) {
          response.content = {
            'application/json': { schema: media.schema, examples: errorExamples(path, method, operation, status, guards.get(operation.operationId ?? '')) },
          };
        }
      }
    }
  }
  refreshRideRequestExamples(document, now);
}

/**
 * Named estimate/book bodies, one per ride type. Served documents are built once, so the server
 * calls this again on every /docs request: the times stay a few hours ahead however long it runs.
 */
export function refreshRideRequestExamples(document: OpenAPIObject, now: Date = new Date()): OpenAPIObject {
  const bodies: Array<[string, boolean]> = [
    ['/api/v1/rides/estimate', false],
    ['/api/v1/rides/book', true],
  ];
  for (const [path, book] of bodies) {
    const media = (document.paths[path]?.post as Operation | undefined)?.requestBody?.content?.['application/json'];
    if (media) media.examples = rideRequestExamples(now, book);
  }
  return document;
}

function errorExamples(path: string, method: string, operation: Operation, status: string, guard?: RouteGuards): Record<string, Example> {
  const code = Number(status);
  const error = STATUS_CODES[code] ?? 'Error';
  const value = (message: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ statusCode: code, error, message, ...extra });
  const named = (messages: string[]): Record<string, Example> =>
    Object.fromEntries(messages.map((message, i) => [`${status}_${i + 1}`, { summary: message, value: value(message) }]));
  const known = operation.operationId ? OPERATION_MESSAGES[operation.operationId]?.[status] : undefined;
  if (status === '400' && !RAW_BODY_OPERATIONS.has(operation.operationId ?? '')) {
    const examples: Record<string, Example> = {};
    if (operation.requestBody) {
      const detail = { field: 'body', message: 'Request body must be a JSON object' };
      examples.validation = { summary: `Validation failed: ${detail.message}`, value: value(detail.message, { details: [detail] }) };
      examples.malformed_json = { summary: 'Malformed JSON', value: value('Malformed JSON in request body') };
    } else if (operation.parameters?.some((p) => p.in === 'query')) {
      const paged = operation.parameters.some((p) => p.name === 'limit');
      const detail = paged
        ? { field: 'limit', message: 'limit must not be greater than 100' }
        : { field: 'radius_km', message: `radius_km must not be greater than ${NEARBY_MAX_RADIUS_KM}` };
      examples.validation = { summary: `Validation failed: ${detail.message}`, value: value(detail.message, { details: [detail] }) };
    } else if (operation.parameters?.some((p) => p.in === 'path')) {
      examples.malformed_url = { summary: 'Malformed URL', value: value('Malformed URL: invalid percent-encoding in the path') };
    }
    if (!operation.requestBody && method !== 'get') {
      const detail = { field: 'fare', message: 'property fare should not exist' };
      examples.no_body = { summary: 'This operation takes no body: any field is unknown', value: value(detail.message, { details: [detail] }) };
    }
    if (operation.operationId === 'RidesController_estimate' || operation.operationId === 'RidesController_book') {
      const detail = { field: 'pickup.latitude', message: 'pickup.latitude must be a latitude string or number' };
      examples.ride_field = { summary: `Validation failed: ${detail.message}`, value: value(detail.message, { details: [detail] }) };
    }
    const offer = OFFER_REFUSALS[operation.operationId ?? ''];
    if (offer) examples.offered_fare = { summary: offer, value: value(offer, { details: [{ field: 'offered_fare', message: offer }] }) };
    if (operation.operationId === 'RidesController_book') {
      const detail = { field: 'pickup_at', message: PICKUP_AT_RANGE_MESSAGE };
      examples.pickup_at = { summary: `Ride later: ${detail.message}`, value: value(detail.message, { details: [detail] }) };
    }
    return { ...examples, ...named(known ?? []) };
  }
  if (status === '403') {
    const messages = [...guardMessages(guard), ...(known ?? [])];
    return named(messages.length ? messages : [AUTH_MESSAGES.ROLE_FORBIDDEN]);
  }
  if (known) return named(known);
  if (status === '404') {
    if (path.includes('{bid_id}')) return named([BID_MESSAGES.BID_NOT_FOUND]);
    if (path.includes('{ride_id}')) return named([RIDE_MESSAGES.RIDE_NOT_FOUND]);
    if (path.includes('/driver/')) return named([DRIVER_MESSAGES.DRIVER_NOT_FOUND]);
    return named(['User not found']);
  }
  if (status === '500') {
    const id = 'req-1a2b';
    return { '500_1': { summary: 'Unexpected failure', value: value(`Internal server error (correlation id ${id})`, { correlation_id: id }) } };
  }
  return named([GENERIC_MESSAGES[status] ?? error]);
}
