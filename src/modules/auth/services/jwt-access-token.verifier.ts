import { Injectable } from '@nestjs/common';
import { AccessTokenVerifier } from '../../../common/auth/access-token-verifier';
import { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import type { UserAuthState } from '../../users/users.service';
import { UsersService } from '../../users/users.service';
import { AuthError } from '../auth.errors';
import { TokenService } from './token.service';

/**
 * The one verifier for HTTP and WebSocket: a valid HS256 access token whose user still exists, is
 * active and is not blocked, issued no earlier than the user's last session revocation (logout,
 * refresh-token replay). The role comes from the user's current state, not the token.
 */
@Injectable()
export class JwtAccessTokenVerifier extends AccessTokenVerifier {
  constructor(
    private readonly tokens: TokenService,
    private readonly users: UsersService,
  ) {
    super();
  }

  /** The user's state comes from the cache while it holds it (nearly every request of an active user). */
  async verify(token: string): Promise<AuthenticatedUser> {
    const { userId, iat } = this.tokens.verifyAccess(token);
    const cached = this.users.peekAuthState(userId);
    return this.admit(cached ? cached.state : await this.users.getAuthState(userId), iat);
  }

  private admit(state: UserAuthState | undefined, iat: number): AuthenticatedUser {
    if (!state) throw new AuthError('INVALID_ACCESS_TOKEN');
    if (state.isBlocked) throw new AuthError('ACCOUNT_BLOCKED');
    if (!state.isActive) throw new AuthError('ACCOUNT_NOT_ACTIVE');
    // Blocked/inactive answer first (403, as before); a token of an ended session is just invalid.
    if (iat < state.tokensValidAfter) throw new AuthError('INVALID_ACCESS_TOKEN');
    const user: AuthenticatedUser = { id: state.id, role: state.role, isRegistered: state.isRegistered };
    if (state.operatorRole) user.operatorRole = state.operatorRole;
    return user;
  }
}
