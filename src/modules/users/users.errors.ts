import { DomainError } from '../../common/errors/domain.error';

export type UserErrorCode =
  | 'USER_NOT_FOUND'
  | 'EMAIL_IN_USE'
  | 'ACCOUNT_HAS_ACTIVE_RIDE'
  | 'PICTURE_TOO_LARGE'
  | 'PICTURE_INVALID'
  | 'OPERATOR_NOT_FOUND'
  | 'OPERATOR_SELF_REMOVAL'
  | 'OPERATOR_ACCOUNT';

export const USER_MESSAGES: Record<UserErrorCode, string> = {
  USER_NOT_FOUND: 'User not found',
  EMAIL_IN_USE: 'Email already in use',
  ACCOUNT_HAS_ACTIVE_RIDE: 'Finish or cancel your current ride before deleting the account',
  PICTURE_TOO_LARGE: 'Profile picture is larger than the allowed size',
  PICTURE_INVALID: 'profile_picture_base64 must be a base64-encoded PNG, JPEG or WebP image',
  OPERATOR_NOT_FOUND: 'Operator not found',
  OPERATOR_SELF_REMOVAL: 'Operators cannot remove themselves',
  OPERATOR_ACCOUNT: 'Operator accounts are managed under /api/v1/admin/operators',
};

export class UserError extends DomainError<UserErrorCode> {
  constructor(code: UserErrorCode, message: string = USER_MESSAGES[code]) {
    super(code, message);
  }
}
