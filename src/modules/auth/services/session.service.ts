import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { UserResponseDto } from '../../users/dto/user-response.dto';
import { AuthError } from '../auth.errors';
import { AuthRepository } from '../auth.repository';
import { LoginDto } from '../dto/login.dto';
import { SessionResponseDto } from '../dto/session-response.dto';
import { TokenPairResponseDto } from '../dto/token-pair-response.dto';
import { TokenService } from './token.service';

/** login, refresh-token and logout: one valid refresh token per user, stored as a hash. */
@Injectable()
export class SessionService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly tokens: TokenService,
    private readonly config: AppConfig,
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
    const row = await this.repo.consumeLoginProof(user.id, this.config.loginOtpWindowMinutes, issued.refreshTokenHash, body.push_token || undefined);
    if (!row) throw new AuthError('VERIFY_BEFORE_LOGIN');
    return { ...issued.pair, user: UserResponseDto.from(row) };
  }

  /**
   * Hot path: a signature check and one UPDATE. Only on failure does a second query tell a stale
   * token from an account that may no longer hold a session.
   */
  async refresh(refreshToken: string): Promise<TokenPairResponseDto> {
    const { userId } = this.tokens.verifyRefresh(refreshToken);
    const presented = TokenService.hash(refreshToken);
    const next = this.tokens.issueRefresh(userId);
    const role = await this.repo.rotateRefreshToken(userId, presented, next.hash);
    if (!role) {
      const state = await this.repo.refreshTokenState(userId, presented);
      if (state?.matches && !state.allowed) throw new AuthError('ACCOUNT_NOT_ACTIVE');
      throw new AuthError('INVALID_REFRESH_TOKEN');
    }
    return {
      access_token: this.tokens.issueAccess({ id: userId, role }),
      refresh_token: next.token,
      token_type: 'bearer',
      expires_in: this.tokens.accessTokenTtlSeconds,
    };
  }

  /** Ends the session: refresh token and device token cleared; an unknown user is ignored. */
  async logout(userId: number): Promise<void> {
    await this.repo.clearSession(userId);
  }
}
