import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { BatchLoader } from '../../common/cache/batch-loader';
import { ReadThroughCache } from '../../common/cache/read-through-cache';
import { EventBus } from '../../common/events/event-bus';
import { OnDomainEvent } from '../../common/events/on-domain-event';
import { toMajor } from '../../common/money';
import { AppConfig } from '../../config/app-config';
import { DriverError } from '../drivers/drivers.errors';
import { DriversService } from '../drivers/drivers.service';
import type { PassengerRatingsPort } from '../rides/rating-averages.port';
import type { RidePinSetting, RidePinSettingsPort } from '../rides/ride-pin-settings.port';
import { RidesService } from '../rides/rides.service';
import { WalletError } from '../wallets/wallets.errors';
import { WalletsService } from '../wallets/wallets.service';
import { AuditedBy, AuditService } from '../audit/audit.service';
import { normalizeEmail } from './contact';
import { MeResponseDto, MeWalletDto } from './dto/me-response.dto';
import type { DriverProfileResponseDto } from '../drivers/dto/driver-response.dto';
import { UpdateProfileDto } from './dto/update-profile.dto';
import { UserResponseDto } from './dto/user-response.dto';
import { isUniqueViolation } from '../../common/database/sql-results';
import { untilCutoff } from './session-cutoff';
import type { SessionRevocationReason } from './users.events';
import { ProfilePictureService } from './storage/profile-picture.service';
import { UserError } from './users.errors';
import { ProfileChanges, ridePinSettingSql, UserAuthState, UsersRepository } from './users.repository';

export type { UserAuthState };

@Injectable()
export class UsersService implements PassengerRatingsPort, RidePinSettingsPort {
  /**
   * Auth state is read on every authenticated request; caching it for at most USER_STATE_CACHE_MS
   * keeps that off the database while a block or deletion still takes effect at once: the events
   * that change it (block, deletion, logout, unblock, registration, on any instance) invalidate the
   * entry and detach a read in flight, so a read that started before a block can never store the
   * unblocked state after it. The lifetime therefore only bounds how long a change made behind the
   * service's back (a hand-edited row, a lost event) can go unseen. `state` undefined: no such user.
   */
  private readonly authStates: ReadThroughCache<number, { state: UserAuthState | undefined }>;
  /** Cache misses of one event-loop turn share one query (a fleet of drivers after a restart). */
  private readonly authStateLoader: BatchLoader<number, UserAuthState>;

  constructor(
    private readonly users: UsersRepository,
    private readonly config: AppConfig,
    private readonly wallets: WalletsService,
    private readonly pictures: ProfilePictureService,
    private readonly events: EventBus,
    private readonly drivers: DriversService,
    private readonly rides: RidesService,
    private readonly audit: AuditService,
  ) {
    this.authStates = new ReadThroughCache({ ttlMs: config.userStateCacheMs, maxEntries: config.userStateCacheMaxEntries });
    this.authStateLoader = new BatchLoader({
      loadOne: (id) => this.users.findAuthState(id),
      loadMany: (ids) => this.users.findAuthStates(ids),
    });
  }

  async getAuthState(id: number): Promise<UserAuthState | undefined> {
    const cached = this.authStates.peek(id) ?? (await this.authStates.get(id, async () => ({ state: await this.authStateLoader.load(id) })));
    return cached?.state;
  }

  /** The cached auth state while it is fresh (`state` undefined: no such user), else undefined. */
  peekAuthState(id: number): { state: UserAuthState | undefined } | undefined {
    return this.authStates.peek(id);
  }

  /** A block, deletion, logout, unblock, registration or replay on any instance (the bus crosses instances with Redis). */
  @OnDomainEvent('user.access_revoked', 'user.sessions_revoked', 'user.access_restored', 'user.registered')
  private forgetAuthState({ user_id }: { user_id: number }): void {
    this.authStates.invalidate(user_id);
  }

  /** After a registration committed: every instance forgets the "not registered yet" state it may hold. */
  registrationCompleted(id: number): void {
    this.events.publish('user.registered', { user_id: id });
  }

  /**
   * After the caller stored `cutoffSeconds` as the user's tokens_valid_after: the cached state is
   * dropped here at once and on the other instances through the bus; resolves once a token signed
   * now would be accepted again (see session-cutoff.ts).
   */
  async sessionsRevoked(userId: number, reason: SessionRevocationReason, cutoffSeconds: number): Promise<void> {
    this.events.publish('user.sessions_revoked', { user_id: userId, reason });
    await untilCutoff(cutoffSeconds);
  }

  /** The push token of each of these users that has one (CONTRACT §10), by user id. */
  async findPushTokens(userIds: readonly number[]): Promise<Map<number, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.users.findPushTokens([...userIds]);
    return new Map(rows.map((row) => [row.id, row.device_token]));
  }

  findOperatorIds(): Promise<number[]> {
    return this.users.findOperatorIds();
  }

  /** FCM said the token is dead (404 UNREGISTERED): it is forgotten, unless the user has sent a newer one. */
  clearPushToken(userId: number, token: string): Promise<void> {
    return this.users.clearPushToken(userId, token);
  }

  /** A picture sent as base64 (registration's): checked (PICTURE_INVALID, PICTURE_TOO_LARGE), stored, its URL returned. */
  storeProfilePicture(base64: string): Promise<string> {
    return this.pictures.store(this.pictures.decode(base64));
  }

  /** Removes a picture stored by storeProfilePicture (its write rolled back); never throws. */
  discardProfilePicture(url: string | null | undefined): Promise<void> {
    return this.pictures.discard(url);
  }

  /** A driver rated the passenger (PassengerRatingsPort): the users row's part of the `rate` command's statement. */
  addPassengerRatingSql(userId: string, stars: string): string {
    return this.users.addRatingSql(userId, stars);
  }

  /** The passenger's start-PIN setting (RidePinSettingsPort), in the `accept` command's transaction. */
  ridePinSettingOf(userId: number, tx: EntityManager): Promise<RidePinSetting> {
    return this.users.findRidePin(userId, tx);
  }

  /** RidePinSettingsPort: the setting as SQL, for the `accept` command's one statement. */
  ridePinSettingSql(userIdExpr: string): string {
    return ridePinSettingSql(userIdExpr);
  }

  /** GET /auth/me: the public user with wallet and, for drivers, the driver record. */
  async getMe(userId: number): Promise<MeResponseDto> {
    const row = await this.users.findPublicById(userId);
    if (!row) throw new UserError('USER_NOT_FOUND');
    const [wallet, ridePin] = await Promise.all([this.findWallet(userId), this.users.findRidePin(userId)]);
    const me: MeResponseDto = { ...UserResponseDto.from(row), wallet, ride_pin: ridePin };
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
      ridePin: input.ride_pin,
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
      // Rides show their passenger's and driver's names and pictures (ride caches on every instance).
      this.events.publish('user.profile_changed', { user_id: userId });
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
      if (await this.rides.hasLiveRide(userId, manager)) throw new UserError('ACCOUNT_HAS_ACTIVE_RIDE');
      await this.rides.deleteUnsharedRidesOf(userId, manager);
      await this.users.deleteUser(userId, manager);
      return current.profile_picture;
    });
    this.events.publish('user.access_revoked', { user_id: userId, reason: 'deleted' });
    await this.pictures.discard(picture);
  }

  /**
   * Blocks or unblocks a user (the CLI's user:block and POST /admin/users/{id}/block alike), with its
   * audit entry in the same transaction. Blocking ends every session at once: the refresh token is
   * dropped, access tokens stop working (cache forgotten), live connections close with 4403.
   * Operator accounts are refused: a support agent blocking an admin would be a way up, and an
   * operator is removed under /admin/operators instead.
   */
  async setBlocked(userId: number, blocked: boolean, by: AuditedBy): Promise<UserResponseDto> {
    const row = await this.users.runInTransaction(async (manager) => {
      const current = await this.users.lockPublicById(userId, manager);
      if (!current) throw new UserError('USER_NOT_FOUND');
      if (current.role === 'operator') throw new UserError('OPERATOR_ACCOUNT');
      const updated = (await this.users.setBlocked(userId, blocked, manager))!;
      await this.audit.record(
        { ...by, action: blocked ? 'users.block' : 'users.unblock', targetType: 'user', targetId: userId, details: { was_blocked: current.is_blocked } },
        manager,
      );
      return updated;
    });
    if (blocked) this.events.publish('user.access_revoked', { user_id: userId, reason: 'blocked' });
    else this.events.publish('user.access_restored', { user_id: userId });
    return UserResponseDto.from(row);
  }

  /** The driver record exactly as GET /driver/profile returns it (one definition of that shape). */
  async findDriverProfile(userId: number): Promise<DriverProfileResponseDto | null> {
    try {
      return await this.drivers.getProfile(userId);
    } catch (err) {
      if (err instanceof DriverError && err.code === 'DRIVER_NOT_FOUND') return null;
      throw err;
    }
  }

  async findWallet(userId: number): Promise<MeWalletDto | null> {
    try {
      const wallet = await this.wallets.getWallet(userId);
      return { balance: toMajor(wallet.balanceMinor), currency: wallet.currency.trim() };
    } catch (err) {
      if (err instanceof WalletError && err.code === 'WALLET_NOT_FOUND') return null;
      throw err;
    }
  }
}
