import { Injectable } from '@nestjs/common';
import { ContactFill, IdentityRow, UserSignInService } from '../../users/user-sign-in.service';
import { UserError } from '../../users/users.errors';
import { AuthError } from '../auth.errors';
import { Contact } from './contact-normalizer';

export interface ResolvedIdentity {
  user: IdentityRow;
  /** Contact details a pending user lacks and the request supplies (identity rule 7). */
  fill: ContactFill;
}

/** A concurrent sign-up for the same contact makes our insert lose; looking up again finds theirs. */
const MAX_CREATE_ATTEMPTS = 3;

function singleContact({ phone, email }: Contact): { phone: string } | { email: string } | undefined {
  if (phone !== undefined && email === undefined) return { phone };
  if (email !== undefined && phone === undefined) return { email };
  return undefined;
}

/** Identity rules 3 to 8 of the spec ("Behaviour of authentication operations"), in order. */
@Injectable()
export class IdentityResolver {
  constructor(private readonly signIn: UserSignInService) {}

  /** send-otp: the matching user, or a new pending one. */
  async resolveOrCreate(contact: Contact): Promise<ResolvedIdentity> {
    for (let attempt = 1; ; attempt += 1) {
      const single = singleContact(contact);
      if (single) {
        // Rules 3/4 with one identifier: a match, else a pending user (rule 8), in one statement.
        const user = await this.signIn.findOrInsertPending(single);
        if (user) return { user, fill: {} };
        if (attempt >= MAX_CREATE_ATTEMPTS) throw new AuthError('REGISTRATION_CONFLICT');
        continue;
      }
      const found = await this.resolve(contact);
      if (found) return found;
      const created = await this.signIn.insertPending(contact.phone, contact.email);
      if (created) return { user: created, fill: {} };
      if (attempt >= MAX_CREATE_ATTEMPTS) throw new AuthError('REGISTRATION_CONFLICT');
    }
  }

  /** verify-otp: never creates a user. */
  async resolveExisting(contact: Contact): Promise<ResolvedIdentity> {
    const found = await this.resolve(contact);
    if (!found) throw new AuthError('NO_PENDING_SIGNUP');
    return found;
  }

  /** Rules 3 to 7; undefined means rule 8 (no candidate). */
  private async resolve({ phone, email }: Contact): Promise<ResolvedIdentity | undefined> {
    const both = phone !== undefined && email !== undefined;
    // Rules 3 and 4: phones are stored normalised, so "+" or not no longer matters; both identifiers must name one user.
    const match = both
      ? await this.signIn.findByPhoneAndEmail(phone, email)
      : phone !== undefined
        ? await this.signIn.findByPhone(phone)
        : await this.signIn.findByEmail(email!);
    if (match) return { user: match, fill: {} };
    if (!both) return undefined;

    // Rule 5: looked up separately.
    const [byPhone, byEmail] = await Promise.all([this.signIn.findByPhone(phone), this.signIn.findByEmail(email)]);
    if (byPhone && byEmail && byPhone.id !== byEmail.id) throw new AuthError('IDENTITY_DIFFERENT_ACCOUNTS');
    const candidate = byPhone ?? byEmail;
    if (!candidate) return undefined;

    // Rule 6: a completed account is never changed by sign-in.
    const phoneMatches = candidate.phone === phone;
    const emailMatches = candidate.email === email;
    if (candidate.is_registered) {
      if (phoneMatches && emailMatches) return { user: candidate, fill: {} };
      throw both ? new AuthError('IDENTITY_MISMATCH') : new UserError('USER_NOT_FOUND');
    }

    // Rule 7: a pending account takes a missing contact detail, never a different one.
    const fill: ContactFill = {};
    if (candidate.email === null) fill.email = email;
    else if (!emailMatches) throw new AuthError('PHONE_LINKED_TO_OTHER_EMAIL');
    if (candidate.phone === null) fill.phone = phone;
    else if (!phoneMatches) throw new AuthError('EMAIL_LINKED_TO_OTHER_PHONE');
    return { user: candidate, fill };
  }
}
