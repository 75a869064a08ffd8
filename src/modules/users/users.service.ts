import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { UserAuthState, UsersRepository } from './users.repository';

const MAX_CACHED_USERS = 100_000;

@Injectable()
export class UsersService {
  /**
   * Auth state is read on every authenticated request; caching it for at most a couple of seconds
   * keeps that off the database while a block or deletion still takes effect almost at once.
   */
  private readonly authStateCache = new Map<number, { state: UserAuthState | undefined; expiresAt: number }>();

  constructor(
    private readonly users: UsersRepository,
    private readonly config: AppConfig,
  ) {}

  async getAuthState(id: number): Promise<UserAuthState | undefined> {
    const now = Date.now();
    const cached = this.authStateCache.get(id);
    if (cached && cached.expiresAt > now) return cached.state;
    const state = await this.users.findAuthState(id);
    if (this.config.userStateCacheMs > 0) {
      if (this.authStateCache.size >= MAX_CACHED_USERS) this.authStateCache.clear();
      this.authStateCache.set(id, { state, expiresAt: now + this.config.userStateCacheMs });
    }
    return state;
  }

  /** Call after changing a user's role, activity, block or registration state. */
  forgetAuthState(id: number): void {
    this.authStateCache.delete(id);
  }
}
