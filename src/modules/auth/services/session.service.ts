import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { UserResponseDto } from '../../users/dto/user-response.dto';
import { sessionCutoffSeconds } from '../../users/session-cutoff';
import { UsersService } from '../../users/users.service';
import { AuthError } from '../auth.errors';
import { AuthRepository } from '../auth.repository';
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
    private readonly repo: AuthRepository,
    private readonly tokens: TokenService,
    private readonly config: AppConfig,
    private readonly users: UsersService,
  ) {}

  /** Spec login checks in order, then CONTRACT.md's proof rule (a fresh, unused verify-otp success). */
  async login(body: LoginDto): Promise<SessionResponseDto> {
    const email = body.email || null;
    const phone = body.phone || null;
    const user = email || phone ? await this.repo.findForLogin(email, phone) : undefined;
    if (!user) throw new AuthError('INVALID_CREDENTIALS');
    if (!user.is_verified) throw new AuthError('VERIFY_BEFORE_LOGIN');
    if (!user.is_active) throw new AuthError('ACCOUNT_NOT_ACTIVE');
    if (user.is_blocked) throw new AuthError('ACCOUNT_BLOCKED');
    const issued = this.tokens.issue({ id: user.id, role: user.role });
    const session = { refreshTokenHash: issued.refreshTokenHash, family: issued.family };
    const row = await this.repo.consumeLoginProof(user.id, this.config.loginOtpWindowMinutes, session, body.push_token || undefined);
    if (!row) throw new AuthError('VERIFY_BEFORE_LOGIN');
    return { ...issued.pair, user: UserResponseDto.from(row) };
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
    const role = await this.repo.rotateRefreshToken(userId, presented, next.hash);
    if (!role) {
      const state = await this.repo.refreshTokenState(userId, presented, family);
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
    await this.repo.clearSession(userId, cutoff);
    await this.users.sessionsRevoked(userId, 'logout', cutoff);
  }

  private async revokeFamily(userId: number, family: string): Promise<void> {
    const cutoff = sessionCutoffSeconds();
    if (await this.repo.revokeFamily(userId, family, cutoff)) {
      this.logger.warn({ msg: 'Refresh token replayed: session revoked', user_id: userId });
      await this.users.sessionsRevoked(userId, 'refresh_token_replay', cutoff);
    }
  }
}
