import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { UserResponseDto } from '../../users/dto/user-response.dto';
import { sessionCutoffSeconds } from '../../users/session-cutoff';
import { LoginCandidateRow, UserSignInService } from '../../users/user-sign-in.service';
import { UsersService } from '../../users/users.service';
import { AuthError } from '../auth.errors';
import { LoginDto } from '../dto/login.dto';
import { SessionResponseDto } from '../dto/session-response.dto';
import { TokenPairResponseDto } from '../dto/token-pair-response.dto';
import { TokenService } from './token.service';

/**
 * login, refresh-token and logout: one valid refresh token per user, stored as a hash together
 * with its family (the login it descends from). Presenting an already rotated token of the current
 * family is taken as theft (RFC 9700 section 4.14.2): the whole session is revoked.
 */
@Injectable()
export class SessionService {
  private readonly logger = new Logger('SessionService');
  constructor(
    private readonly signIn: UserSignInService,
    private readonly tokens: TokenService,
    private readonly config: AppConfig,
    private readonly users: UsersService,
  ) {}

  /**
   * The spec's login checks in its order, with CONTRACT §3's proof in the place of "verified": the
   * caller's bearer must be the access token of this user's last verify-otp, within
   * LOGIN_OTP_WINDOW_MINUTES and not yet used by a login. Knowing the phone number is not enough.
   */
  async login(body: LoginDto, bearer: string | undefined): Promise<SessionResponseDto> {
    const email = body.email || null;
    const phone = body.phone || null;
    const window = this.config.loginOtpWindowMinutes;
    const user = email || phone ? await this.signIn.findForLogin(email, phone, window) : undefined;
    if (!user) throw new AuthError('INVALID_CREDENTIALS');
    const proof = this.proofHash(user, bearer);
    if (!user.is_verified || !proof) throw new AuthError('VERIFY_BEFORE_LOGIN');
    if (!user.is_active) throw new AuthError('ACCOUNT_NOT_ACTIVE');
    if (user.is_blocked) throw new AuthError('ACCOUNT_BLOCKED');
    const issued = this.tokens.issue({ id: user.id, role: user.role });
    const session = { refreshTokenHash: issued.refreshTokenHash, family: issued.family };
    // Conditional on the proof again: of concurrent logins with one proof, one wins.
    const row = await this.signIn.consumeLoginProof(user.id, { hash: proof, windowMinutes: window }, session, body.push_token || undefined);
    if (!row) throw new AuthError('VERIFY_BEFORE_LOGIN');
    return { ...issued.pair, user: UserResponseDto.from(row) };
  }

  /** The stored proof's hash when the bearer is the valid, unexpired access token it was made from. */
  private proofHash(user: LoginCandidateRow, bearer: string | undefined): string | undefined {
    if (!bearer || !user.login_proof_hash) return undefined;
    try {
      if (this.tokens.verifyAccess(bearer).userId !== user.id) return undefined;
    } catch {
      return undefined;
    }
    const hash = TokenService.hash(bearer);
    return hash === user.login_proof_hash ? hash : undefined;
  }

  /**
   * Hot path: a signature check and one UPDATE. Only on failure does a second query tell a stale
   * token from an account that may no longer hold a session, or from a replay.
   *
   * A replay is a validly signed, unexpired refresh token of this user that is not the stored one
   * but carries the stored one's family: it was rotated already, so two parties hold tokens of
   * one session. Which one is the thief is unknowable, so the session ends: the stored refresh
   * token is dropped and every access token issued so far is refused (also on other instances).
   * The same holds for two concurrent refreshes with one token: the loser revokes the session the
   * winner just got (a client must not retry a refresh in parallel). A token of an earlier login
   * (another family) is only refused: it does not end the newer session.
   */
  async refresh(refreshToken: string): Promise<TokenPairResponseDto> {
    const { userId, family } = this.tokens.verifyRefresh(refreshToken);
    const presented = TokenService.hash(refreshToken);
    const next = this.tokens.issueRefresh(userId, family);
    const role = await this.signIn.rotateRefreshToken(userId, presented, next.hash);
    if (!role) {
      const state = await this.signIn.refreshTokenState(userId, presented, family);
      if (state?.matches && !state.allowed) throw new AuthError('ACCOUNT_NOT_ACTIVE');
      if (state?.replayed && family) await this.revokeFamily(userId, family);
      throw new AuthError('INVALID_REFRESH_TOKEN');
    }
    return {
      access_token: this.tokens.issueAccess({ id: userId, role }),
      refresh_token: next.token,
      token_type: 'bearer',
      expires_in: this.tokens.accessTokenTtlSeconds,
    };
  }

  /**
   * Ends the session: refresh token and device token cleared, and every access token issued so
   * far refused at once; an unknown user is ignored.
   */
  async logout(userId: number): Promise<void> {
    const cutoff = sessionCutoffSeconds();
    await this.signIn.clearSession(userId, cutoff);
    await this.users.sessionsRevoked(userId, 'logout', cutoff);
  }

  private async revokeFamily(userId: number, family: string): Promise<void> {
    const cutoff = sessionCutoffSeconds();
    if (await this.signIn.revokeFamily(userId, family, cutoff)) {
      this.logger.warn({ msg: 'Refresh token replayed: session revoked', user_id: userId });
      await this.users.sessionsRevoked(userId, 'refresh_token_replay', cutoff);
    }
  }
}
