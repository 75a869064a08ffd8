import { HttpStatus } from '@nestjs/common';
import type { CommonErrorCode } from '../common/errors/common.errors';
import type { AuthErrorCode } from '../modules/auth/auth.errors';
import type { UserErrorCode } from '../modules/users/users.errors';
import type { WalletErrorCode } from '../modules/wallets/wallets.errors';
import type { PaymentErrorCode } from '../modules/payments/payments.errors';
import type { PricingErrorCode } from '../modules/pricing/pricing.errors';
import type { RideErrorCode } from '../modules/rides/rides.errors';
import type { BidErrorCode } from '../modules/rides/bids/bids.errors';
import type { ChatErrorCode } from '../modules/rides/chat/ride-chat.errors';
import type { DriverErrorCode } from '../modules/drivers/drivers.errors';
import type { TripSharingErrorCode } from '../modules/trip-sharing/trip-sharing.errors';
import type { SafetyErrorCode } from '../modules/safety/safety.errors';

export type AppErrorCode =
  | CommonErrorCode
  | AuthErrorCode
  | UserErrorCode
  | WalletErrorCode
  | PaymentErrorCode
  | PricingErrorCode
  | RideErrorCode
  | BidErrorCode
  | ChatErrorCode
  | DriverErrorCode
  | TripSharingErrorCode
  | SafetyErrorCode;

/**
 * Every error code a service may raise, and its HTTP status. A code without a row fails to compile.
 * The composition root states it (it alone knows every module) and hands it to the global filter.
 */
export const ERROR_STATUS: Readonly<Record<AppErrorCode, HttpStatus>> = {
  VALIDATION_FAILED: HttpStatus.BAD_REQUEST,
  UNAUTHENTICATED: HttpStatus.UNAUTHORIZED,
  FORBIDDEN: HttpStatus.FORBIDDEN,
  NOT_FOUND: HttpStatus.NOT_FOUND,
  CONFLICT: HttpStatus.CONFLICT,
  PAYLOAD_TOO_LARGE: HttpStatus.PAYLOAD_TOO_LARGE,
  RATE_LIMITED: HttpStatus.TOO_MANY_REQUESTS,

  EMAIL_OR_PHONE_REQUIRED: HttpStatus.BAD_REQUEST,
  PHONE_REQUIRED: HttpStatus.BAD_REQUEST,
  INVALID_PHONE: HttpStatus.BAD_REQUEST,
  IDENTITY_DIFFERENT_ACCOUNTS: HttpStatus.CONFLICT,
  IDENTITY_MISMATCH: HttpStatus.CONFLICT,
  PHONE_LINKED_TO_OTHER_EMAIL: HttpStatus.CONFLICT,
  EMAIL_LINKED_TO_OTHER_PHONE: HttpStatus.CONFLICT,
  NO_PENDING_SIGNUP: HttpStatus.NOT_FOUND,
  INVALID_OTP: HttpStatus.BAD_REQUEST,
  OTP_EXPIRED: HttpStatus.BAD_REQUEST,
  ACCOUNT_ALREADY_COMPLETED: HttpStatus.CONFLICT,
  VERIFY_BEFORE_REGISTRATION: HttpStatus.FORBIDDEN,
  PHONE_MISMATCH: HttpStatus.BAD_REQUEST,
  EMAIL_MISMATCH: HttpStatus.BAD_REQUEST,
  REGISTRATION_CONFLICT: HttpStatus.BAD_REQUEST,
  TOKEN_ISSUE_CONFLICT: HttpStatus.CONFLICT,
  INVALID_CREDENTIALS: HttpStatus.UNAUTHORIZED,
  VERIFY_BEFORE_LOGIN: HttpStatus.FORBIDDEN,
  ACCOUNT_NOT_ACTIVE: HttpStatus.FORBIDDEN,
  ACCOUNT_BLOCKED: HttpStatus.FORBIDDEN,
  INVALID_REFRESH_TOKEN: HttpStatus.UNAUTHORIZED,
  INVALID_ACCESS_TOKEN: HttpStatus.UNAUTHORIZED,
  INCOMPLETE_ACCOUNT: HttpStatus.FORBIDDEN,
  ROLE_FORBIDDEN: HttpStatus.FORBIDDEN,
  PHONE_SIGN_IN_UNAVAILABLE: HttpStatus.BAD_REQUEST,
  EMAIL_SIGN_IN_UNAVAILABLE: HttpStatus.BAD_REQUEST,
  OTP_DELIVERY_FAILED: HttpStatus.SERVICE_UNAVAILABLE,

  USER_NOT_FOUND: HttpStatus.NOT_FOUND,
  EMAIL_IN_USE: HttpStatus.CONFLICT,
  ACCOUNT_HAS_ACTIVE_RIDE: HttpStatus.CONFLICT,
  PICTURE_TOO_LARGE: HttpStatus.PAYLOAD_TOO_LARGE,
  PICTURE_INVALID: HttpStatus.BAD_REQUEST,
  OPERATOR_NOT_FOUND: HttpStatus.NOT_FOUND,
  OPERATOR_SELF_REMOVAL: HttpStatus.CONFLICT,
  OPERATOR_ACCOUNT: HttpStatus.CONFLICT,

  WALLET_NOT_FOUND: HttpStatus.NOT_FOUND,
  INSUFFICIENT_FUNDS: HttpStatus.CONFLICT,
  INVALID_AMOUNT: HttpStatus.BAD_REQUEST,

  CARD_PAYMENTS_UNAVAILABLE: HttpStatus.BAD_REQUEST,
  PAYOUTS_UNAVAILABLE: HttpStatus.BAD_REQUEST,
  PAYMENT_PROVIDER_UNAVAILABLE: HttpStatus.SERVICE_UNAVAILABLE,
  CARD_DECLINED: HttpStatus.PAYMENT_REQUIRED,
  CARD_REQUIRED: HttpStatus.BAD_REQUEST,
  CARD_NOT_FOUND: HttpStatus.NOT_FOUND,
  CARD_IN_USE: HttpStatus.CONFLICT,
  PAYMENT_ALREADY_HELD: HttpStatus.CONFLICT,
  TIP_ALREADY_CHARGED: HttpStatus.CONFLICT,
  NO_HELD_PAYMENT: HttpStatus.CONFLICT,
  REFUND_EXCEEDS_PAID: HttpStatus.CONFLICT,
  NOTHING_TO_REFUND: HttpStatus.CONFLICT,
  PAYOUT_ACCOUNT_NOT_READY: HttpStatus.CONFLICT,
  PAYOUT_EXCEEDS_BALANCE: HttpStatus.CONFLICT,
  PAYOUT_BELOW_MINIMUM: HttpStatus.BAD_REQUEST,
  PAYOUT_REFUSED: HttpStatus.CONFLICT,
  PAYOUT_KEY_REUSED: HttpStatus.CONFLICT,
  INVALID_WEBHOOK: HttpStatus.BAD_REQUEST,

  CATEGORY_NOT_FOUND: HttpStatus.BAD_REQUEST,
  PROMO_NOT_FOUND: HttpStatus.BAD_REQUEST,

  RIDE_NOT_FOUND: HttpStatus.NOT_FOUND,
  ACTIVE_RIDE_EXISTS: HttpStatus.CONFLICT,
  RIDE_NOT_REQUESTED: HttpStatus.CONFLICT,
  INVALID_STATUS_TRANSITION: HttpStatus.CONFLICT,
  RIDE_NOT_CANCELLABLE: HttpStatus.CONFLICT,
  IDEMPOTENCY_KEY_REUSED: HttpStatus.CONFLICT,
  INVALID_RIDE_REQUEST: HttpStatus.BAD_REQUEST,
  RIDE_NOT_COMPLETED: HttpStatus.CONFLICT,
  TIP_ALREADY_PAID: HttpStatus.CONFLICT,
  TIP_WINDOW_CLOSED: HttpStatus.CONFLICT,
  NO_SHOW_TOO_EARLY: HttpStatus.CONFLICT,
  CASH_RIDE_NOT_REFUNDABLE: HttpStatus.CONFLICT,
  SCHEDULED_RIDE_LIMIT: HttpStatus.CONFLICT,
  RIDE_ALREADY_RATED: HttpStatus.CONFLICT,
  RATING_WINDOW_CLOSED: HttpStatus.CONFLICT,
  WRONG_PIN: HttpStatus.BAD_REQUEST,
  TOO_MANY_WRONG_PINS: HttpStatus.TOO_MANY_REQUESTS,

  BID_NOT_FOUND: HttpStatus.NOT_FOUND,
  BID_NOT_PENDING: HttpStatus.CONFLICT,
  DRIVER_BUSY: HttpStatus.CONFLICT,
  DRIVER_CANNOT_BID: HttpStatus.FORBIDDEN,

  CHAT_CLOSED: HttpStatus.CONFLICT,

  SOS_RIDE_NOT_LIVE: HttpStatus.CONFLICT,
  SOS_NOT_FOUND: HttpStatus.NOT_FOUND,
  SOS_ALREADY_RESOLVED: HttpStatus.CONFLICT,
  RIDE_CHECK_NOT_STARTED: HttpStatus.CONFLICT,

  DRIVER_NOT_FOUND: HttpStatus.NOT_FOUND,
  DOCUMENTS_MISSING: HttpStatus.CONFLICT,
  DOCUMENT_NOT_FOUND: HttpStatus.NOT_FOUND,
  DRIVER_NOT_SUSPENDED: HttpStatus.CONFLICT,
  DRIVER_NOT_APPROVED: HttpStatus.FORBIDDEN,
  DRIVER_LOCATION_UNKNOWN: HttpStatus.BAD_REQUEST,

  SHARE_RIDE_NOT_FOUND: HttpStatus.NOT_FOUND,
  SHARE_RIDE_ENDED: HttpStatus.CONFLICT,
  SHARED_RIDE_NOT_FOUND: HttpStatus.NOT_FOUND,
};
