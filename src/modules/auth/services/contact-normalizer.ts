import { normalizeEmail } from '../../users/contact';
import { AuthError } from '../auth.errors';

/** Longest phone number E.164 allows. */
const MAX_PHONE_DIGITS = 15;

export interface Contact {
  phone?: string;
  email?: string;
}

/** Phones are stored as + and digits only (spec section 4, identity rule 2). */
export function normalizePhone(raw: string): string {
  if (raw.trim() === '') throw new AuthError('PHONE_REQUIRED');
  const digits = raw.replace(/\D/g, '');
  if (digits.length === 0 || digits.length > MAX_PHONE_DIGITS) throw new AuthError('INVALID_PHONE');
  return `+${digits}`;
}

/**
 * Identity rules 1 and 2: at least one non-blank identifier; a supplied phone must normalise
 * (a blank one alongside an e-mail is "Phone is required"); a blank e-mail counts as absent.
 */
export function normalizeContact(input: { phone?: string | null; email?: string | null }): Contact {
  const phone = input.phone ?? undefined;
  const email = input.email ?? undefined;
  const hasPhone = phone !== undefined && phone.trim() !== '';
  const hasEmail = email !== undefined && email.trim() !== '';
  if (!hasPhone && !hasEmail) throw new AuthError('EMAIL_OR_PHONE_REQUIRED');
  const contact: Contact = {};
  if (phone !== undefined) contact.phone = normalizePhone(phone);
  if (hasEmail) contact.email = normalizeEmail(email);
  return contact;
}
