import { CommonError } from '../../common/errors/common.errors';

/** The longest e-mail address accepted anywhere (RFC 5321's path limit; the users.email column). */
export const EMAIL_MAX_LENGTH = 254;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** E-mails are stored trimmed and lower-cased (spec section 2); anything not shaped like one is refused. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_SHAPE.test(email)) {
    throw CommonError.validation('email', 'email must be a valid e-mail address');
  }
  return email;
}
