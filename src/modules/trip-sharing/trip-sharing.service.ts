import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ReadThroughCache } from '../../common/cache/read-through-cache';
import { isIntegrityViolation } from '../../common/database/sql-results';
import { EventBus } from '../../common/events/event-bus';
import { OnDomainEvent } from '../../common/events/on-domain-event';
import { RateLimiter } from '../../common/rate-limit/rate-limiter';
import { AppConfig } from '../../config/app-config';
import { DriverLocationsService } from '../drivers/driver-locations.service';
import type { RideResponseDto as RideView } from '../rides/dto/ride-response.dto';
import { isFinalStatus } from '../rides/ride-status';
import { RidesService } from '../rides/rides.service';
import { ShareLinkRow, ShareLinksRepository } from './share-links.repository';
import { SharedRide, sharedRideOf, SharedRideView, ShareLinkView } from './shared-ride.view';
import { TripSharingError } from './trip-sharing.errors';

/** 32 random bytes, base64url: 256 bits, 43 characters. Anything else is no token of ours (404 without a lookup). */
const TOKEN_BYTES = 32;
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
/** Where the public view is served; the composition root's API prefix (bootstrap/ is not imported). */
const SHARED_RIDES_PATH = '/api/v1/shared-rides/';
const MINUTE_SECONDS = 60;
const HOUR_SECONDS = 3600;

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Trip sharing (CONTRACT §11). The passenger of a live ride makes links; anyone holding one sees
 * where the trip is, without logging in, until the passenger ends the links or 30 minutes after the
 * ride is final. The public view is refreshed every few seconds by whoever follows the trip, so it
 * is served from memory: the link (by token hash) and the ride's shared part (by ride id) are cached
 * for SHARED_RIDE_CACHE_MS and forgotten on the events that change them; only the driver's position
 * is read per request, from the live-position store the passenger's own map uses.
 */
@Injectable()
export class TripSharingService {
  private readonly links: ReadThroughCache<string, ShareLinkRow>;
  private readonly rides: ReadThroughCache<string, SharedRide>;

  constructor(
    private readonly repository: ShareLinksRepository,
    private readonly ridesService: RidesService,
    private readonly locations: DriverLocationsService,
    private readonly limiter: RateLimiter,
    private readonly events: EventBus,
    private readonly config: AppConfig,
  ) {
    const options = { ttlMs: config.sharedRideCacheMs, maxEntries: config.sharedRideCacheMaxEntries };
    this.links = new ReadThroughCache(options);
    this.rides = new ReadThroughCache(options);
  }

  /** A new link to the caller's live ride: 404 for anyone but its passenger, 409 once the ride is final. */
  async share(rideId: string, user: AuthenticatedUser): Promise<ShareLinkView> {
    const ride = await this.ownRide(rideId, user);
    if (isFinalStatus(ride.status)) throw new TripSharingError('SHARE_RIDE_ENDED');
    // Each link is a row: a bound per passenger keeps a script from filling the table.
    await this.limiter.enforce(`share-link:${user.id}`, this.config.shareLinksPerHour, HOUR_SECONDS);
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    try {
      await this.repository.insert(hashOf(token), ride.id);
    } catch (err) {
      // The ride went with its passenger's account meanwhile.
      if (isIntegrityViolation(err)) throw new TripSharingError('SHARE_RIDE_NOT_FOUND');
      throw err;
    }
    return { token, url: `${this.config.publicBaseUrl}${SHARED_RIDES_PATH}${token}`, expires_at: null };
  }

  /**
   * A link made for one SOS text (CONTRACT §14): the alert's rules already judged who may raise it
   * and when, and one open alert per ride bounds how many are made, so neither the owner check nor
   * the per-passenger hourly limit applies.
   */
  async shareForAlert(rideId: string): Promise<ShareLinkView> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    await this.repository.insert(hashOf(token), rideId);
    return { token, url: `${this.config.publicBaseUrl}${SHARED_RIDES_PATH}${token}`, expires_at: null };
  }

  /** Ends every link of the caller's ride (in any status); every instance forgets them on the event. */
  async endSharing(rideId: string, user: AuthenticatedUser): Promise<void> {
    const ride = await this.ownRide(rideId, user);
    await this.repository.revokeAllOf(ride.id);
    this.events.publish('ride.share_ended', { ride_id: ride.id });
  }

  /** The public view behind a token; 404 for a token unknown, revoked or past its ride's end + 30 min. */
  async viewShared(token: string, clientIp: string): Promise<SharedRideView> {
    await this.limiter.enforce(`shared-ride:${clientIp}`, this.config.sharedRideRateLimitPerIpPerMinute, MINUTE_SECONDS);
    if (!TOKEN_FORMAT.test(token)) throw new TripSharingError('SHARED_RIDE_NOT_FOUND');
    const hash = hashOf(token);
    const link = this.links.peek(hash) ?? (await this.links.get(hash, () => this.repository.findByHash(hash)));
    if (!link || link.revoked) throw new TripSharingError('SHARED_RIDE_NOT_FOUND');
    const shared = this.rides.peek(link.ride_id) ?? (await this.rides.get(link.ride_id, () => this.loadSharedRide(link.ride_id)));
    if (!shared || (shared.endsAt !== null && shared.endsAt <= Date.now())) throw new TripSharingError('SHARED_RIDE_NOT_FOUND');
    const position = shared.live && shared.driverId !== null ? await this.locations.latestOf(shared.driverId) : undefined;
    const driver_location = position ? { latitude: position.latitude, longitude: position.longitude, at: position.at.toISOString() } : null;
    return { ...shared.view, driver_location };
  }

  private async loadSharedRide(rideId: string): Promise<SharedRide | undefined> {
    const ride = await this.ridesService.findRideView(rideId);
    return ride ? sharedRideOf(ride) : undefined;
  }

  private async ownRide(rideId: string, user: AuthenticatedUser): Promise<RideView> {
    const ride = await this.ridesService.findRideView(rideId);
    if (!ride || ride.passenger?.id !== user.id) throw new TripSharingError('SHARE_RIDE_NOT_FOUND');
    return ride;
  }

  @OnDomainEvent('ride.accepted', 'ride.status_changed', 'ride.cancelled', 'ride.expired', 'ride.rated')
  private rideChanged(e: { ride_id: string }): void {
    this.rides.invalidate(e.ride_id.toLowerCase());
  }

  /** The shared view shows the driver's vehicle. */
  @OnDomainEvent('driver.profile_changed')
  private driverChanged(e: { user_id: number }): void {
    this.rides.invalidateWhere((ride) => ride.driverId === e.user_id);
  }

  @OnDomainEvent('ride.share_ended')
  private shareEnded(e: { ride_id: string }): void {
    const rideId = e.ride_id.toLowerCase();
    this.links.invalidateWhere((link) => link.ride_id === rideId);
  }
}
