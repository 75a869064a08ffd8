import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { EventBus } from '../../common/events/event-bus';
import { toMajor } from '../../common/money';
import { AppConfig } from '../../config/app-config';
import { DriverError } from '../drivers/drivers.errors';
import { DriversService } from '../drivers/drivers.service';
import { WalletError } from '../wallets/wallets.errors';
import { RidesService } from '../rides/rides.service';
import { WalletsService } from '../wallets/wallets.service';
import { normalizeEmail } from './contact';
import { MeDriverDto, MeResponseDto, MeWalletDto } from './dto/me-response.dto';
import { UpdateProfileDto } from './dto/update-profile.dto';
import { UserResponseDto } from './dto/user-response.dto';
import { isUniqueViolation } from './sql-results';
import { ProfilePictureService } from './storage/profile-picture.service';
import { UserError } from './users.errors';
import { ProfileChanges, UserAuthState, UsersRepository } from './users.repository';

const MAX_CACHED_USERS = 100_000;

@Injectable()
export class UsersService implements OnModuleInit, OnModuleDestroy {
  /**
   * Auth state is read on every authenticated request; caching it for at most a couple of seconds
   * keeps that off the database while a block or deletion still takes effect almost at once.
   */
  private readonly authStateCache = new Map<number, { state: UserAuthState | undefined; expiresAt: number }>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly users: UsersRepository,
    private readonly config: AppConfig,
    private readonly wallets: WalletsService,
    private readonly pictures: ProfilePictureService,
    private readonly events: EventBus,
    private readonly rides: RidesService,
    private readonly drivers: DriversService,
  ) {}

  /** A block or deletion on any instance (the bus crosses instances with Redis) ends the cached state here too. */
  onModuleInit(): void {
    this.unsubscribe = this.events.subscribe('user.access_revoked', ({ user_id }) => this.forgetAuthState(user_id));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  async getAuthState(id: number): Promise<UserAuthState | undefined> {
    const cached = this.peekAuthState(id);
    if (cached) return cached.state;
    const now = Date.now();
    const state = await this.users.findAuthState(id);
    if (this.config.userStateCacheMs > 0) {
      if (this.authStateCache.size >= MAX_CACHED_USERS) this.authStateCache.clear();
      this.authStateCache.set(id, { state, expiresAt: now + this.config.userStateCacheMs });
    }
    return state;
  }

  /** The cached auth state while it is fresh (`state` undefined: no such user), else undefined. */
  peekAuthState(id: number): { state: UserAuthState | undefined } | undefined {
    const cached = this.authStateCache.get(id);
    return cached && cached.expiresAt > Date.now() ? cached : undefined;
  }

  /** Call after changing a user's role, activity, block or registration state. */
  forgetAuthState(id: number): void {
    this.authStateCache.delete(id);
  }

  /** GET /auth/me: the public user with wallet and, for drivers, the driver record. */
  async getMe(userId: number): Promise<MeResponseDto> {
    const row = await this.users.findPublicById(userId);
    if (!row) throw new UserError('USER_NOT_FOUND');
    const me: MeResponseDto = { ...UserResponseDto.from(row), wallet: await this.findWallet(userId) };
    if (row.role === 'driver') {
      me.driver = await this.findDriverProfile(userId);
    }
    return me;
  }

  /** PUT /auth/profile: applies only the supplied fields. */
  async updateProfile(userId: number, input: UpdateProfileDto): Promise<UserResponseDto> {
    const email = input.email !== undefined && input.email !== null ? normalizeEmail(input.email) : undefined;
    // Decode first: a bad picture must fail before anything is written.
    const picture = input.profile_picture_base64 ? this.pictures.decode(input.profile_picture_base64) : undefined;
    const pictureUrl = picture ? await this.pictures.store(picture) : undefined;
    const changes: ProfileChanges = {
      email,
      firstName: input.first_name ?? undefined,
      lastName: input.last_name ?? undefined,
      profilePicture: pictureUrl,
    };
    let previousPicture: string | null = null;
    try {
      const row = await this.users.runInTransaction(async (manager) => {
        const current = await this.users.lockById(userId, manager);
        if (!current) throw new UserError('USER_NOT_FOUND');
        if (email !== undefined && email !== current.email && (await this.users.isEmailHeldByOther(email, userId, manager))) {
          throw new UserError('EMAIL_IN_USE');
        }
        previousPicture = current.profile_picture;
        return (await this.users.updateProfile(userId, changes, manager))!;
      });
      // Rides show their passenger's and driver's names and pictures.
      this.rides.noteUserProfileChanged(userId);
      if (pictureUrl) await this.pictures.discard(previousPicture);
      return UserResponseDto.from(row);
    } catch (err) {
      if (pictureUrl) await this.pictures.discard(pictureUrl);
      // Two users claiming one e-mail at the same moment: the unique index decides.
      if (isUniqueViolation(err)) throw new UserError('EMAIL_IN_USE');
      throw err;
    }
  }

  /**
   * DELETE /auth/account, in one transaction: refused while a ride is under way; the user's own
   * unshared rides go with the account, shared rides keep the other party's record.
   */
  async deleteAccount(userId: number): Promise<void> {
    const picture = await this.users.runInTransaction(async (manager) => {
      const current = await this.users.lockById(userId, manager);
      if (!current) throw new UserError('USER_NOT_FOUND');
      if (await this.users.hasLiveRide(userId, manager)) throw new UserError('ACCOUNT_HAS_ACTIVE_RIDE');
      await this.users.deleteWithOwnData(userId, manager);
      return current.profile_picture;
    });
    this.forgetAuthState(userId);
    // Its unshared rides are gone and the shared ones no longer name it.
    this.rides.noteUserProfileChanged(userId);
    this.events.publish('user.access_revoked', { user_id: userId, reason: 'deleted' });
    await this.pictures.discard(picture);
  }

  /**
   * Operator command: blocks or unblocks a user. Blocking ends every session at once: the refresh
   * token is dropped, access tokens stop working (cache forgotten), live connections are closed.
   */
  async setBlocked(userId: number, blocked: boolean): Promise<UserResponseDto> {
    const row = await this.users.setBlocked(userId, blocked);
    if (!row) throw new UserError('USER_NOT_FOUND');
    this.forgetAuthState(userId);
    if (blocked) this.events.publish('user.access_revoked', { user_id: userId, reason: 'blocked' });
    return UserResponseDto.from(row);
  }

  /** The driver record exactly as GET /driver/profile returns it (one definition of that shape). */
  private async findDriverProfile(userId: number): Promise<MeDriverDto | null> {
    try {
      return (await this.drivers.getProfile(userId)) as unknown as MeDriverDto;
    } catch (err) {
      if (err instanceof DriverError && err.code === 'DRIVER_NOT_FOUND') return null;
      throw err;
    }
  }

  private async findWallet(userId: number): Promise<MeWalletDto | null> {
    try {
      const wallet = await this.wallets.getWallet(userId);
      return { balance: toMajor(wallet.balanceMinor), currency: wallet.currency.trim() };
    } catch (err) {
      if (err instanceof WalletError && err.code === 'WALLET_NOT_FOUND') return null;
      throw err;
    }
  }
}
