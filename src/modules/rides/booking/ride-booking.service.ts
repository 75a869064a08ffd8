import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { RateLimiter } from '../../../common/rate-limit/rate-limiter';
import { AppConfig } from '../../../config/app-config';
import { WalletsService } from '../../wallets/wallets.service';
import { PaymentsService } from '../../payments/payments.service';
import type { FareEstimate } from '../../pricing/fare-estimate';
import { PricingService } from '../../pricing/pricing.service';
import type { BookRideDto } from '../dto/book-ride.dto';
import { checkPickupAt } from './pickup-at.rules';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { RidesRepository } from '../read-models/rides.repository';
import type { RideRequest, TransitionHooks, UserCommand } from '../transitions/ride-command';
import { RideTransitionsService } from '../transitions/ride-transitions.service';
import { RideError } from '../rides.errors';
import { rideToJson } from '../read-models/ride-view';
import type { RideView } from '../read-models/ride-view';
import { toMinor } from '../../../common/money';
import { checkOfferedFare } from '../offers/offer.rules';

const HOUR_SECONDS = 3600;

export interface BookingResult {
  ride: RideView;
  /** false when an Idempotency-Key replay returned the ride booked earlier. */
  created: boolean;
}

/** A stable fingerprint of the validated body: same fields and values, whatever their order. */
export function requestHash(body: object): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.keys(value)
          .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
          .sort()
          .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
      );
    }
    return value;
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)))
    .digest('hex');
}

/**
 * POST /rides/book: prices the request, claims the Idempotency-Key and redeems the promo in the
 * transaction that creates the ride (the `book` transition, which announces it after commit).
 */
@Injectable()
export class RideBookingService {
  constructor(
    private readonly pricing: PricingService,
    private readonly wallets: WalletsService,
    private readonly payments: PaymentsService,
    private readonly transitions: RideTransitionsService,
    private readonly reads: RidesRepository,
    private readonly keys: IdempotencyKeysRepository,
    private readonly config: AppConfig,
    private readonly limiter: RateLimiter,
  ) {}

  async book(user: AuthenticatedUser, dto: BookRideDto, idempotencyKey?: string): Promise<BookingResult> {
    checkPickupAt(dto.pickup_at);
    const estimate = await this.pricing.quote(dto, dto.vehicle_category_id);
    const offeredFareMinor = dto.offered_fare === undefined ? null : toMinor(dto.offered_fare)!;
    if (offeredFareMinor !== null) checkOfferedFare(offeredFareMinor, estimate.totalMinor, this.config.minOfferPercent);
    // Book-cancel loops are bounded per passenger (OWASP API6): counted before anything is written.
    await this.limiter.enforce(`book:${user.id}`, this.config.bookingRateLimitPerHour, HOUR_SECONDS);
    if (dto.payment_method === 'wallet' && !(await this.wallets.covers(user.id, 0))) {
      throw RideError.field('INVALID_RIDE_REQUEST', 'payment_method', 'Paying by wallet needs a wallet; complete registration first');
    }
    // 400 "Card payments are not available" without Stripe, "Add a card to pay by card" without a saved card.
    if (dto.payment_method === 'card') await this.payments.requireSavedCard(user.id);
    const hash = idempotencyKey === undefined ? '' : requestHash(dto);

    const rideId = randomUUID();
    let created = true;
    const request = rideRequest(dto, estimate, offeredFareMinor);
    // With a pickup time the ride is booked for later: the `schedule` command, not `book`.
    const command: UserCommand = dto.pickup_at === undefined ? { type: 'book', ride: request } : { type: 'schedule', ride: request, pickupAt: dto.pickup_at };
    // Without a key or a promo the booking is the insert alone (one statement, no transaction).
    const needsTransaction = idempotencyKey !== undefined || estimate.promo?.applied === true;
    const ride = await this.transitions.apply(
      rideId,
      command,
      user,
      needsTransaction ? this.hooks(user, idempotencyKey, hash, estimate, rideId, (c) => (created = c)) : {},
    );
    return { ride: ride as RideView, created };
  }

  /** The key claimed and the promo counted in the booking's own transaction. */
  private hooks(
    user: AuthenticatedUser,
    idempotencyKey: string | undefined,
    hash: string,
    estimate: FareEstimate,
    rideId: string,
    setCreated: (created: boolean) => void,
  ): TransitionHooks {
    return {
      // The key is claimed and the promo counted in the booking's own transaction: a replay with the
      // same body answers the ride booked earlier, and a booking that rolls back used neither.
      before: async (tx) => {
        setCreated(true);
        if (idempotencyKey !== undefined && !(await this.keys.claim(user.id, idempotencyKey, hash, tx))) {
          const earlier = await this.keys.find(user.id, idempotencyKey, tx);
          if (!earlier || earlier.request_hash !== hash || !earlier.ride_id) throw new RideError('IDEMPOTENCY_KEY_REUSED');
          const row = await this.reads.findView(earlier.ride_id, tx);
          if (!row) throw new RideError('RIDE_NOT_FOUND');
          setCreated(false);
          return rideToJson(row);
        }
        if (estimate.promo?.applied && estimate.promo.promoId !== undefined) {
          const refusal = await this.pricing.redeemPromo(estimate.promo.promoId, tx);
          if (refusal !== null) withoutPromo(estimate, refusal);
        }
        return undefined;
      },
      after: async (tx) => {
        if (idempotencyKey !== undefined) await this.keys.attachRide(user.id, idempotencyKey, rideId, tx);
      },
    };
  }
}

function rideRequest(dto: BookRideDto, estimate: FareEstimate, offeredFareMinor: number | null): RideRequest {
  return {
    rideType: dto.ride_type,
    vehicleCategoryId: dto.vehicle_category_id,
    pickup: dto.pickup,
    dropoff: dto.dropoff,
    returnLocation: dto.return_location ?? null,
    passengerCount: dto.passenger_count ?? 1,
    children: dto.children ?? 0,
    paymentMethod: dto.payment_method,
    durationMinutes: dto.duration_minutes ?? null,
    endScheduledAt: dto.end_scheduled_at ?? null,
    returnScheduledAt: dto.return_scheduled_at ?? null,
    // The code as pricing read it (trimmed, upper-case): present exactly when the body named one.
    promoCode: estimate.promo?.code ?? null,
    estimate,
    offeredFareMinor,
  };
}

/** The promo stopped applying between estimate and booking (limit reached, expired meanwhile): book at full price, saying why. */
function withoutPromo(estimate: FareEstimate, reason: string): void {
  if (!estimate.promo) return;
  estimate.totalMinor += estimate.discountMinor;
  estimate.discountMinor = 0;
  estimate.promo = { code: estimate.promo.code, applied: false, reason, discountMinor: 0 };
}
