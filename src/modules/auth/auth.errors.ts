import { DomainError } from '../../common/errors/domain.error';

export type AuthErrorCode =
  | 'EMAIL_OR_PHONE_REQUIRED'
  | 'PHONE_REQUIRED'
  | 'INVALID_PHONE'
  | 'IDENTITY_DIFFERENT_ACCOUNTS'
  | 'IDENTITY_MISMATCH'
  | 'PHONE_LINKED_TO_OTHER_EMAIL'
  | 'EMAIL_LINKED_TO_OTHER_PHONE'
  | 'NO_PENDING_SIGNUP'
  | 'INVALID_OTP'
  | 'OTP_EXPIRED'
  | 'ACCOUNT_ALREADY_COMPLETED'
  | 'VERIFY_BEFORE_REGISTRATION'
  | 'PHONE_MISMATCH'
  | 'EMAIL_MISMATCH'
  | 'REGISTRATION_CONFLICT'
  | 'TOKEN_ISSUE_CONFLICT'
  | 'INVALID_CREDENTIALS'
  | 'VERIFY_BEFORE_LOGIN'
  | 'ACCOUNT_NOT_ACTIVE'
  | 'ACCOUNT_BLOCKED'
  | 'INVALID_REFRESH_TOKEN'
  | 'INVALID_ACCESS_TOKEN'
  | 'INCOMPLETE_ACCOUNT'
  | 'ROLE_FORBIDDEN'
  | 'PHONE_SIGN_IN_UNAVAILABLE'
  | 'EMAIL_SIGN_IN_UNAVAILABLE'
  | 'OTP_DELIVERY_FAILED';

/** The spec's messages, verbatim (section 7 and CONTRACT.md section 2). */
export const AUTH_MESSAGES: Record<AuthErrorCode, string> = {
  EMAIL_OR_PHONE_REQUIRED: 'Either email or phone is required',
  PHONE_REQUIRED: 'Phone is required',
  INVALID_PHONE: 'Invalid phone number',
  IDENTITY_DIFFERENT_ACCOUNTS: 'Phone and email belong to different accounts',
  IDENTITY_MISMATCH: 'Phone and email do not match one account. Use the same phone and email as at login, or send only one of them.',
  PHONE_LINKED_TO_OTHER_EMAIL: 'This phone is already linked to another email address',
  EMAIL_LINKED_TO_OTHER_PHONE: 'This email is already linked to another phone number',
  NO_PENDING_SIGNUP: 'No pending signup for this phone. Call send-otp first with the same number in international format.',
  INVALID_OTP: 'Invalid OTP',
  OTP_EXPIRED: 'OTP expired',
  ACCOUNT_ALREADY_COMPLETED: 'Account already completed \u2014 use login',
  VERIFY_BEFORE_REGISTRATION: 'Verify OTP before completing registration',
  PHONE_MISMATCH: 'Phone does not match the verified account',
  EMAIL_MISMATCH: 'Email does not match the verified account',
  REGISTRATION_CONFLICT: 'Registration failed due to duplicate or invalid data',
  TOKEN_ISSUE_CONFLICT: 'Could not issue session tokens. Please login again',
  INVALID_CREDENTIALS: 'Invalid credentials',
  VERIFY_BEFORE_LOGIN: 'Verify OTP before logging in',
  ACCOUNT_NOT_ACTIVE: 'Account is not active',
  ACCOUNT_BLOCKED: 'Account is blocked',
  INVALID_REFRESH_TOKEN: 'Invalid refresh token',
  INVALID_ACCESS_TOKEN: 'Invalid or expired access token',
  INCOMPLETE_ACCOUNT: 'Complete registration before using ride endpoints',
  ROLE_FORBIDDEN: 'This endpoint is not available for your role',
  PHONE_SIGN_IN_UNAVAILABLE: 'Phone sign-in is not available',
  EMAIL_SIGN_IN_UNAVAILABLE: 'Email sign-in is not available',
  OTP_DELIVERY_FAILED: 'Could not send the code. Please try again',
};

export class AuthError extends DomainError<AuthErrorCode> {
  constructor(code: AuthErrorCode, message: string = AUTH_MESSAGES[code], retryAfterSeconds?: number) {
    super(code, message, undefined, retryAfterSeconds);
  }
}
