import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { UserRole } from '../../common/auth/authenticated-user';
import { LoginCandidateRow, SessionsRepository } from './sign-in/sessions.repository';
import { ContactFill, IdentityRow, OtpStateRow, RegistrationChanges, SessionUserRow, SignInRepository, VerifiedChanges } from './sign-in/sign-in.repository';

export type { ContactFill, IdentityRow, LoginCandidateRow, OtpStateRow, RegistrationChanges, SessionUserRow, VerifiedChanges };

/**
 * The sign-in state of a user row (identity lookup, pending accounts, the OTP, the login proof, the
 * session's refresh token, registration), for the auth module. Auth decides every rule; this module
 * owns the users table and is its only writer, so each statement lives here and is named for what it
 * does. Why not tables of auth's own: the state belongs to the user row (the refresh rotation's one
 * UPDATE checks is_active and is_blocked in the same row, blocking drops the session, deletion removes
 * it), and the auth guard's cached user state is one read of it. Each method is one statement (no
 * added round trip); those taking an EntityManager join the caller's transaction.
 */
@Injectable()
export class UserSignInService {
  constructor(
    private readonly signIn: SignInRepository,
    private readonly sessions: SessionsRepository,
  ) {}

  /** A transaction for a sign-in step made of several statements (verify-otp, register). */
  runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.signIn.runInTransaction(work);
  }

  findByPhoneAndEmail(phone: string, email: string): Promise<IdentityRow | undefined> {
    return this.signIn.findByPhoneAndEmail(phone, email);
  }

  findByPhone(phone: string): Promise<IdentityRow | undefined> {
    return this.signIn.findByPhone(phone);
  }

  findByEmail(email: string): Promise<IdentityRow | undefined> {
    return this.signIn.findByEmail(email);
  }

  /** A new pending user; undefined when a concurrent request created it first. */
  insertPending(phone: string | undefined, email: string | undefined): Promise<IdentityRow | undefined> {
    return this.signIn.insertPending(phone, email);
  }

  /** The user one contact names, or a new pending one, in one statement. */
  findOrInsertPending(contact: { phone: string } | { email: string }): Promise<IdentityRow | undefined> {
    return this.signIn.findOrInsertPending(contact);
  }

  storeOtp(userId: number, codeHash: string, ttlSeconds: number, fill: ContactFill): Promise<void> {
    return this.signIn.storeOtp(userId, codeHash, ttlSeconds, fill);
  }

  voidOtp(userId: number, codeHash: string): Promise<void> {
    return this.signIn.voidOtp(userId, codeHash);
  }

  lockOtpState(userId: number, manager: EntityManager): Promise<OtpStateRow | undefined> {
    return this.signIn.lockOtpState(userId, manager);
  }

  recordFailedOtp(userId: number, maxAttempts: number, manager: EntityManager): Promise<void> {
    return this.signIn.recordFailedOtp(userId, maxAttempts, manager);
  }

  markVerified(userId: number, changes: VerifiedChanges, manager: EntityManager): Promise<SessionUserRow> {
    return this.signIn.markVerified(userId, changes, manager);
  }

  isEmailHeldByOther(email: string, userId: number, manager: EntityManager): Promise<boolean> {
    return this.signIn.isEmailHeldByOther(email, userId, manager);
  }

  lockForRegistration(userId: number, manager: EntityManager): Promise<(IdentityRow & { profile_picture: string | null }) | undefined> {
    return this.signIn.lockForRegistration(userId, manager);
  }

  completeRegistration(userId: number, changes: RegistrationChanges, manager: EntityManager): Promise<void> {
    return this.signIn.completeRegistration(userId, changes, manager);
  }

  storeSessionAfterRegistration(userId: number, refreshTokenHash: string, family: string): Promise<SessionUserRow | undefined> {
    return this.signIn.storeSessionAfterRegistration(userId, refreshTokenHash, family);
  }

  findForLogin(email: string | null, phone: string | null, windowMinutes: number): Promise<LoginCandidateRow | undefined> {
    return this.sessions.findForLogin(email, phone, windowMinutes);
  }

  consumeLoginProof(
    userId: number,
    proof: { hash: string; windowMinutes: number },
    session: { refreshTokenHash: string; family: string },
    deviceToken: string | undefined,
  ): Promise<SessionUserRow | undefined> {
    return this.sessions.consumeLoginProof(userId, proof, session, deviceToken);
  }

  /** The refresh rotation: one UPDATE (the hot path; see SessionsRepository.rotateRefreshToken). */
  rotateRefreshToken(userId: number, oldHash: string, newHash: string): Promise<UserRole | undefined> {
    return this.sessions.rotateRefreshToken(userId, oldHash, newHash);
  }

  refreshTokenState(userId: number, hash: string, family: string | undefined): Promise<{ matches: boolean; allowed: boolean; replayed: boolean } | undefined> {
    return this.sessions.refreshTokenState(userId, hash, family);
  }

  revokeFamily(userId: number, family: string, cutoffSeconds: number): Promise<boolean> {
    return this.sessions.revokeFamily(userId, family, cutoffSeconds);
  }

  clearSession(userId: number, cutoffSeconds: number): Promise<void> {
    return this.sessions.clearSession(userId, cutoffSeconds);
  }
}
