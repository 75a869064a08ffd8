import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CommonError } from '../../common/errors/common.errors';
import { RateLimiter } from '../../common/rate-limit/rate-limiter';
import { AppConfig } from '../../config/app-config';
import { UserResponseDto } from '../users/dto/user-response.dto';
import { ContactFill, SessionUserRow, UserSignInService } from '../users/user-sign-in.service';
import { isUniqueViolation } from '../../common/database/sql-results';
import { AuthError } from './auth.errors';
import { OtpSentResponseDto } from './dto/otp-sent-response.dto';
import { SendOtpDto } from './dto/send-otp.dto';
import { VerifyOtpResponseDto } from './dto/session-response.dto';
import { VerifyOtpDto } from './dto/verify-otp.dto';
import { Contact, normalizeContact } from './services/contact-normalizer';
import { IdentityResolver } from './services/identity-resolver';
import { OTP_TTL_SECONDS, OtpCodes } from './services/otp-codes';
import { OtpDelivery } from './otp/otp-delivery.service';
import { IssuedTokens, TokenService } from './services/token.service';

const HOUR_SECONDS = 3600;

/** send-otp and verify-otp: proving control of a phone number or e-mail address. */
@Injectable()
export class AuthService {
  constructor(
    private readonly signIn: UserSignInService,
    private readonly identities: IdentityResolver,
    private readonly codes: OtpCodes,
    private readonly delivery: OtpDelivery,
    private readonly tokens: TokenService,
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
  ) {}

  /**
   * The code is stored before it is sent, so it works the moment it arrives. When no channel took
   * it (503), the attempt is undone: the code is voided (a later send-otp stores a new one) and the
   * hits on the cooldown and the hourly cap are given back, so the user may retry at once.
   */
  async sendOtp(input: SendOtpDto): Promise<OtpSentResponseDto> {
    const contact = normalizeContact(input);
    const destinations = this.delivery.destinations(contact);
    const { user, fill } = await this.identities.resolveOrCreate(contact);
    await this.enforceSendLimits(user.id);
    const code = this.codes.generate();
    const hash = this.codes.hash(user.id, code);
    await this.signIn.storeOtp(user.id, hash, OTP_TTL_SECONDS, fill).catch((err: unknown) => rethrowContactTaken(err));
    try {
      await this.delivery.deliver(destinations, code, OTP_TTL_SECONDS, user.id);
    } catch (err) {
      await this.signIn.voidOtp(user.id, hash);
      if (err instanceof AuthError && err.code === 'OTP_DELIVERY_FAILED') await this.refundSendLimits(user.id);
      throw err;
    }
    return { message: 'OTP sent', expires_in: OTP_TTL_SECONDS };
  }

  async verifyOtp(input: VerifyOtpDto): Promise<VerifyOtpResponseDto> {
    const contact = normalizeContact(input);
    const { user, fill } = await this.identities.resolveExisting(contact);
    const outcome = await this.signIn
      .runInTransaction((manager) => this.checkCodeAndOpenSession(manager, user.id, input.otp, contact, fill))
      .catch((err: unknown) => rethrowContactTaken(err));
    // A wrong code is refused only after the transaction committed, so that the attempt stays counted.
    if (outcome instanceof AuthError) throw outcome;
    return { ...outcome.issued.pair, is_registered: outcome.row.is_registered, user: UserResponseDto.from(outcome.row) };
  }

  /** Under the user's row lock, so that concurrent guesses are counted one after another. */
  private async checkCodeAndOpenSession(
    manager: EntityManager,
    userId: number,
    otp: string,
    contact: Contact,
    fill: ContactFill,
  ): Promise<AuthError | { issued: IssuedTokens; row: SessionUserRow }> {
    const state = await this.signIn.lockOtpState(userId, manager);
    if (!state || !state.otp_code_hash) return new AuthError('INVALID_OTP');
    if (!this.codes.matches(userId, otp, state.otp_code_hash)) {
      await this.signIn.recordFailedOtp(userId, this.config.otpMaxAttempts, manager);
      return new AuthError('INVALID_OTP');
    }
    if (!state.otp_expires_at || new Date(state.otp_expires_at).getTime() < Date.now()) return new AuthError('OTP_EXPIRED');
    // The code is right, but a blocked or inactive account gets no session (its tokens would be refused anyway).
    if (state.is_blocked) return new AuthError('ACCOUNT_BLOCKED');
    if (!state.is_active) return new AuthError('ACCOUNT_NOT_ACTIVE');
    const issued = this.tokens.issue({ id: userId, role: state.role });
    const row = await this.signIn.markVerified(
      userId,
      {
        fill,
        phoneVerified: contact.phone !== undefined,
        emailVerified: contact.email !== undefined,
        refreshTokenHash: issued.refreshTokenHash,
        refreshTokenFamily: issued.family,
        loginProofHash: TokenService.hash(issued.pair.access_token),
      },
      manager,
    );
    return { issued, row };
  }

  private async refundSendLimits(userId: number): Promise<void> {
    if (this.config.otpResendCooldownSeconds > 0) await this.limiter.refund(`otp-send:cooldown:${userId}`);
    if (this.config.otpMaxPerHour > 0) await this.limiter.refund(`otp-send:hour:${userId}`);
  }

  /** Per identity: one code per cooldown and a cap per hour, counted apart from the code (a new code resets neither). */
  private async enforceSendLimits(userId: number): Promise<void> {
    const cooldown = this.config.otpResendCooldownSeconds;
    if (cooldown > 0) {
      const hit = await this.limiter.hit(`otp-send:cooldown:${userId}`, 1, cooldown);
      if (!hit.allowed) throw CommonError.rateLimited(hit.retryAfterSeconds);
    }
    const perHour = this.config.otpMaxPerHour;
    if (perHour > 0) {
      const hit = await this.limiter.hit(`otp-send:hour:${userId}`, perHour, HOUR_SECONDS);
      if (!hit.allowed) throw CommonError.rateLimited(hit.retryAfterSeconds);
    }
  }
}

/**
 * The contact detail a pending user was about to receive (rule 7) was taken by another account
 * between our lookup and our write: now phone and e-mail belong to different accounts.
 */
function rethrowContactTaken(err: unknown): never {
  if (isUniqueViolation(err)) throw new AuthError('IDENTITY_DIFFERENT_ACCOUNTS');
  throw err;
}
